#!/bin/sh
# Builds harness/paths/estargz/build/estargz-mount (estargz-mount.go) offline from
# Debian's Go sources: golang-go and golang-github-containerd-stargz-snapshotter-dev
# (the stargz snapshotter's fs/ package, 0.12.0, and every Go package it was
# built with, under /usr/share/gocode). GOPATH mode: no module proxy, no network.
# Called by setup.sh; `pipeline doctor` says when the binary is missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
gocode=/usr/share/gocode
if ! command -v go >/dev/null 2>&1 || [ ! -d "$gocode/src/github.com/containerd/stargz-snapshotter/fs" ]; then
  echo "benchgraph: the eStargz mount helper needs Debian's golang-go and golang-github-containerd-stargz-snapshotter-dev; install them (apt-get install golang-go golang-github-containerd-stargz-snapshotter-dev) and run harness/paths/estargz/build.sh again." >&2
  exit 1
fi
src="$here/build/gopath/src/benchgraph/estargz-mount"
rm -rf "$here/build/gopath"
mkdir -p "$src"
cp "$here/estargz-mount.go" "$src/main.go"
GO111MODULE=off GOFLAGS= GOPROXY=off GOPATH="$here/build/gopath:$gocode" GOCACHE="$here/build/gocache" \
  go build -trimpath -o "$here/build/estargz-mount.tmp" benchgraph/estargz-mount
mv -f "$here/build/estargz-mount.tmp" "$here/build/estargz-mount"
