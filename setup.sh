#!/bin/sh
# Installs what benchgraph needs, then builds it. Safe to run again.
#  - as root on Debian or Ubuntu: the Debian packages of the real paths
#    (apt-get update once, then apt-get install of what is missing);
#  - not root: prints the exact install command and exits 1 if a package is
#    missing (nothing else is done);
#  - then npm ci and npm run build (TypeScript and the C launch helper).
set -eu
cd "$(dirname "$0")"

# python3-numpy, python3-scipy, r-base-core, r-cran-strucchange: independent references of the statistics tests (strucchange: change points of pipeline history); hyperfine: bench/ only.
# librsvg2-bin (rsvg-convert) and chromium: the report tests render plots to PNG and open index.html headless.
# apache2-utils (htpasswd -B): the bcrypt password file of the store's TLS + basic-auth registry test.
# r-cran-lme4 (with r-base-core's nlme): the R reference of the nested variance components (host, run, session, round) in test/stats-nested-variance-components.test.ts.
# slurm-wlm and munge: the local test cluster of the Slurm executor; runsc, iproute2, e2fsprogs, curl: the gVisor effect rows; pigz and zstd: the commit-diff compression step.
# containerd, stargz-snapshotter (ctr-remote), golang-go and golang-github-containerd-stargz-snapshotter-dev: the estargz paths
# (the registry's prepare converts images with ctr-remote; harness/paths/estargz/build.sh builds their mount helper from that Go source).
PACKAGES="docker.io docker-registry rclone erofs-utils mmdebstrap crun skopeo umoci nginx-light hyperfine busybox-static fuse3 gcc libc6-dev python3-numpy python3-scipy r-base-core r-cran-strucchange r-cran-lme4 librsvg2-bin chromium slurm-wlm munge runsc iproute2 e2fsprogs curl pigz zstd apache2-utils containerd stargz-snapshotter golang-go golang-github-containerd-stargz-snapshotter-dev"

missing=""
if command -v dpkg-query >/dev/null 2>&1; then
  for p in $PACKAGES; do
    if ! dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then missing="$missing $p"; fi
  done
fi

if [ -n "$missing" ]; then
  if [ ! -r /etc/os-release ] || ! grep -Eq '^(ID|ID_LIKE)=.*(debian|ubuntu)' /etc/os-release; then
    echo "setup.sh: not Debian or Ubuntu; install the equivalents of:$missing" >&2
    exit 1
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup.sh: missing Debian packages:$missing" >&2
    echo "run as root:  apt-get update && apt-get install -y --no-install-recommends$missing" >&2
    exit 1
  fi
  echo "setup.sh: installing:$missing"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci
fi
npm run build
# the estargz paths' mount helper (Go, offline from Debian's sources); rebuilt when its source is newer
helper=harness/paths/estargz/build/estargz-mount
if [ ! -x "$helper" ] || [ harness/paths/estargz/estargz-mount.go -nt "$helper" ]; then
  echo "setup.sh: building $helper from Debian's stargz-snapshotter sources"
  sh harness/paths/estargz/build.sh
fi
echo "setup.sh: ready (pipeline doctor lists what the real paths need)"
