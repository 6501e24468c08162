#!/bin/sh
# The lazy path's launcher: on-demand reads of an erofs image over HTTP.
#
#   lazy-launch.sh cold|warm PAIR_DIR WORKSPACE BASE_URL ERofs_FILE -- CMD [ARG...]
#
# cold: mounts BASE_URL with rclone and ERofs_FILE from it with the kernel's
#   erofs (lazy-mount.sh: fresh client cache folder under PAIR_DIR, on-demand
#   64 KiB reads, FUSE reads one at a time). rclone runs in its own session, so
#   it outlives the cold launch's process group (which the launch helper kills
#   when the launch completes); its pid is in PAIR_DIR/lazy/rclone.pid.
# warm: reuses the pair's mounts from its cold launch.
# Both: a fresh overlay upper layer in WORKSPACE and `crun run` (oci-run.sh).
# BENCHGRAPH_LAZY_CHUNK (a path's env; default 64k) is rclone's read size:
# each on-demand read fetches that many bytes (pipelines/image-reads.yaml
# compares 64k with AWS Lambda's 512k).
# On a failure while mounting, everything mounted so far is undone. The pair's
# mounts are undone by the after_pair hook (cleanup-pair.sh PAIR_DIR --remove).
set -eu
[ $# -ge 6 ] && [ "$6" = "--" ] || { echo "usage: lazy-launch.sh cold|warm PAIR_DIR WORKSPACE BASE_URL EROFS_FILE -- CMD [ARG...]" >&2; exit 64; }
state=$1; pair=$2; ws=$3; url=$4; file=$5; shift 6
here=$(cd "$(dirname "$0")" && pwd -P)
mkdir -p "$pair"
pair=$(cd "$pair" && pwd -P)
d="$pair/lazy"

if [ "$state" = cold ]; then
  "$here/lazy-mount.sh" "$pair" "$url" "$file" || exit $?
elif [ "$state" = warm ]; then
  mountpoint -q "$d/lower" || { echo "lazy-launch: warm launch without the pair's mounts ($d/lower); did the cold launch fail?" >&2; exit 73; }
  # The pair's rclone must still serve the image (it may have been killed since the cold launch).
  pid=$(cat "$d/rclone.pid" 2>/dev/null || true)
  { [ -n "$pid" ] && [ -d "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; } ||
    { echo "lazy-launch: rclone (pid ${pid:-unknown}) serving this pair died; warm launch not started" >&2; exit 74; }
else
  echo "lazy-launch: state must be cold or warm, not $state" >&2; exit 64
fi

exec "$here/${BENCHGRAPH_RUN_SCRIPT:-oci-run.sh}" "$d/lower" "$ws" -- "$@"
