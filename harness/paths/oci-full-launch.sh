#!/bin/sh
# The oci-full path's launcher: a complete pull and unpack, then crun.
#
#   oci-full-launch.sh cold|warm PAIR_DIR WORKSPACE IMAGE_REF -- CMD [ARG...]
#
# IMAGE_REF is HOST:PORT/REPO@sha256:DIGEST on a plain-HTTP registry (the
# byte-counting proxy on loopback). cold: `skopeo copy` every blob into a fresh
# OCI layout under PAIR_DIR and `umoci unpack` it into a root folder. warm:
# reuses the pair's unpacked root. Both: a fresh overlay upper layer in
# WORKSPACE and `crun run` (oci-run.sh). skopeo runs in a private mount
# namespace with a private /var/lib, so its blob-info cache
# (/var/lib/containers/cache) is neither read nor left on the host.
# The after_pair hook removes PAIR_DIR/oci (cleanup-pair.sh PAIR_DIR --remove).
set -eu
[ $# -ge 5 ] && [ "$5" = "--" ] || { echo "usage: oci-full-launch.sh cold|warm PAIR_DIR WORKSPACE IMAGE_REF -- CMD [ARG...]" >&2; exit 64; }
state=$1; pair=$2; ws=$3; ref=$4; shift 5
here=$(cd "$(dirname "$0")" && pwd -P)
mkdir -p "$pair"
pair=$(cd "$pair" && pwd -P)
d="$pair/oci"

if [ "$state" = cold ]; then
  rm -rf "$d"
  mkdir -p "$d"
  unshare --mount --propagation private /bin/sh -c '
    set -e
    mount -t tmpfs -o size=16m,mode=0700 tmpfs /var/lib
    skopeo --insecure-policy copy --quiet --src-tls-verify=false "docker://$1" "oci:$2/layout:image" >&2
    echo "BENCHGRAPH-PHASE copy-done" >&2
    umoci --log error unpack --image "$2/layout:image" "$2/bundle" >&2
    echo "BENCHGRAPH-PHASE unpack-done" >&2
  ' oci-full "$ref" "$d" || { echo "oci-full-launch: pull or unpack of $ref failed" >&2; rm -rf "$d"; exit 71; }
elif [ "$state" = warm ]; then
  [ -d "$d/bundle/rootfs" ] || { echo "oci-full-launch: warm launch without the pair's unpacked image ($d/bundle); did the cold launch fail?" >&2; exit 73; }
else
  echo "oci-full-launch: state must be cold or warm, not $state" >&2; exit 64
fi

exec "$here/${BENCHGRAPH_RUN_SCRIPT:-oci-run.sh}" "$d/bundle/rootfs" "$ws" -- "$@"
