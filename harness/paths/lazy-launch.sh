#!/bin/sh
# The lazy path's launcher: on-demand reads of an erofs image over HTTP.
#
#   lazy-launch.sh cold|warm PAIR_DIR WORKSPACE BASE_URL ERofs_FILE -- CMD [ARG...]
#
# cold: mounts BASE_URL with rclone (fresh client cache folder under PAIR_DIR,
#   reads on demand in 64 KiB chunks, no buffering or read-ahead in rclone, FUSE
#   reads served one at a time so the bytes fetched do not depend on timing),
#   then mounts ERofs_FILE from it with the kernel's erofs (read-only). rclone
#   runs in its own session, so it outlives the cold launch's process group
#   (which the launch helper kills when the launch completes); its pid is in
#   PAIR_DIR/lazy/rclone.pid.
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
  "$here/cleanup-pair.sh" "$pair" --remove >&2 || { echo "lazy-launch: could not clear $d" >&2; exit 70; }
  chunk=${BENCHGRAPH_LAZY_CHUNK:-64k}
  case $chunk in *[!0-9kM]* | '') echo "lazy-launch: BENCHGRAPH_LAZY_CHUNK must be a size such as 64k or 1M, not $chunk" >&2; exit 64 ;; esac
  mkdir -p "$d/remote" "$d/lower" "$d/rclone-cache"
  trap '"$here/cleanup-pair.sh" "$pair" >&2' EXIT
  trap 'exit 143' INT TERM
  echo "$d/remote" > "$d/rclone.mountpoint"
  # rclone runs in a session (and process group) of its own: the launch helper
  # kills whatever is left in the launch's process group when the launch
  # completes, and rclone must serve the warm launch too. setsid -f forks, so
  # rclone is not a child of this launcher either (crun, which this script
  # becomes, waits for all its children). The forked shell writes its own pid
  # (rclone's, after exec) for cleanup-pair.sh, which stops it by pid.
  rm -f "$d/rclone.pid"
  setsid -f /bin/sh -c 'echo $$ > "$1.tmp" && mv "$1.tmp" "$1" && shift && exec "$@"' lazy-rclone "$d/rclone.pid" \
    rclone mount --http-url "$url" :http: "$d/remote" --config /dev/null --read-only \
    --vfs-cache-mode off --buffer-size 0 --max-read-ahead 0 --async-read=false \
    --vfs-read-chunk-size "$chunk" --vfs-read-chunk-size-limit "$chunk" \
    --dir-cache-time 1000h --poll-interval 0 --cache-dir "$d/rclone-cache" \
    --log-file "$d/rclone.log" --log-level NOTICE </dev/null >/dev/null 2>&1 ||
    { echo "lazy-launch: could not start rclone" >&2; exit 71; }
  i=0
  until [ -s "$d/rclone.pid" ] && mountpoint -q "$d/remote"; do
    pid=$(cat "$d/rclone.pid" 2>/dev/null || true)
    if { [ -n "$pid" ] && { [ ! -d "/proc/$pid" ] || grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; }; } || [ $i -ge 2000 ]; then
      echo "lazy-launch: rclone did not mount $url (see $d/rclone.log)" >&2; exit 71
    fi
    sleep 0.005; i=$((i + 1))
  done
  mount -t erofs -o ro "$d/remote/$file" "$d/lower" || { echo "lazy-launch: could not mount $file from $url" >&2; exit 72; }
  trap - EXIT INT TERM
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
