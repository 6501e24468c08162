#!/bin/sh
# The lazy paths' on-demand mount: rclone mounts BASE_URL (a fresh client cache
# folder under PAIR_DIR, reads on demand in BENCHGRAPH_LAZY_CHUNK-sized chunks,
# default 64 KiB, no buffering or read-ahead in rclone, FUSE reads served one
# at a time so the bytes fetched do not depend on timing), then the kernel's
# erofs mounts EROFS_FILE from it, read-only, at PAIR_DIR/lazy/lower.
#
#   lazy-mount.sh PAIR_DIR BASE_URL EROFS_FILE
#
# rclone runs in a session of its own, so it outlives the process group of
# whoever asked for the mount (the launch helper kills what is left of a
# launch's group when the launch completes); its pid is in
# PAIR_DIR/lazy/rclone.pid. Anything of PAIR_DIR/lazy mounted before is undone
# first; on a failure while mounting, everything mounted so far is undone.
# The mounts are undone by cleanup-pair.sh PAIR_DIR --remove.
# Used by lazy-launch.sh (a cold launch mounts, then starts its container) and
# by burst-startup's lazy path (one mount read by every launch of a burst).
set -eu
[ $# -eq 3 ] || { echo "usage: lazy-mount.sh PAIR_DIR BASE_URL EROFS_FILE" >&2; exit 64; }
pair=$1; url=$2; file=$3
here=$(cd "$(dirname "$0")" && pwd -P)
mkdir -p "$pair"
pair=$(cd "$pair" && pwd -P)
d="$pair/lazy"

"$here/cleanup-pair.sh" "$pair" --remove >&2 || { echo "lazy-mount: could not clear $d" >&2; exit 70; }
chunk=${BENCHGRAPH_LAZY_CHUNK:-64k}
case $chunk in *[!0-9kM]* | '') echo "lazy-mount: BENCHGRAPH_LAZY_CHUNK must be a size such as 64k or 1M, not $chunk" >&2; exit 64 ;; esac
mkdir -p "$d/remote" "$d/lower" "$d/rclone-cache"
trap '"$here/cleanup-pair.sh" "$pair" >&2' EXIT
trap 'exit 143' INT TERM
echo "$d/remote" > "$d/rclone.mountpoint"
# rclone runs in a session (and process group) of its own. setsid -f forks, so
# rclone is not a child of this script either (crun, which lazy-launch.sh
# becomes, waits for all its children). The forked shell writes its own pid
# (rclone's, after exec) for cleanup-pair.sh, which stops it by pid.
rm -f "$d/rclone.pid"
setsid -f /bin/sh -c 'echo $$ > "$1.tmp" && mv "$1.tmp" "$1" && shift && exec "$@"' lazy-rclone "$d/rclone.pid" \
  rclone mount --http-url "$url" :http: "$d/remote" --config /dev/null --read-only \
  --vfs-cache-mode off --buffer-size 0 --max-read-ahead 0 --async-read=false \
  --vfs-read-chunk-size "$chunk" --vfs-read-chunk-size-limit "$chunk" \
  --dir-cache-time 1000h --poll-interval 0 --cache-dir "$d/rclone-cache" \
  --log-file "$d/rclone.log" --log-level NOTICE </dev/null >/dev/null 2>&1 ||
  { echo "lazy-mount: could not start rclone" >&2; exit 71; }
i=0
until [ -s "$d/rclone.pid" ] && mountpoint -q "$d/remote"; do
  pid=$(cat "$d/rclone.pid" 2>/dev/null || true)
  if { [ -n "$pid" ] && { [ ! -d "/proc/$pid" ] || grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; }; } || [ $i -ge 2000 ]; then
    echo "lazy-mount: rclone did not mount $url (see $d/rclone.log)" >&2; exit 71
  fi
  sleep 0.005; i=$((i + 1))
done
mount -t erofs -o ro "$d/remote/$file" "$d/lower" || { echo "lazy-mount: could not mount $file from $url" >&2; exit 72; }
trap - EXIT INT TERM
