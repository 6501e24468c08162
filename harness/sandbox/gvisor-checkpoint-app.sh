#!/bin/sh
# Starts an app in a gVisor sandbox, waits for its ready line, checkpoints it
# into an image folder and removes the stopped sandbox: the image a restore
# row restores. Everything lives under ROW_DIR/NAME (bundle/, image/, app.out).
# Prints checkpoint_ms=, image_bytes= and app_rss_kb= (the sandbox's memory
# footprint as the host saw it just before the checkpoint: sum of the RSS of
# the sandbox's processes).
#
#   gvisor-checkpoint-app.sh ROW_DIR NAME ROOTFS READY_LINE TIMEOUT_S -- CMD [ARG...]
set -eu
[ $# -ge 7 ] && [ "$6" = "--" ] || { echo "usage: gvisor-checkpoint-app.sh ROW_DIR NAME ROOTFS READY_LINE TIMEOUT_S -- CMD [ARG...]" >&2; exit 64; }
row=$1; name=$2; rootfs=$3; ready=$4; timeout_s=$5; shift 6
here=$(cd "$(dirname "$0")" && pwd -P)
d="$row/$name"
rm -rf "$d"; mkdir -p "$d"
"$here/gvisor-bundle.sh" "$rootfs" "$d/bundle" -- "$@"
id="app-$name-$$"
trap '"$here/runsc.sh" "$row" kill "$id" KILL >/dev/null 2>&1 || true; "$here/runsc.sh" "$row" delete -force "$id" >/dev/null 2>&1 || true' EXIT
trap 'exit 143' INT TERM
"$here/runsc.sh" "$row" run -detach --bundle "$d/bundle" "$id" </dev/null >"$d/app.out" 2>"$d/app.err"
i=0
until grep -qx "$ready" "$d/app.out" 2>/dev/null; do
  [ $i -lt $((timeout_s * 20)) ] || { echo "gvisor-checkpoint-app: $name did not print '$ready' within $timeout_s s (see $d/app.out, $d/app.err)" >&2; exit 70; }
  sleep 0.05; i=$((i + 1))
done
pid=$("$here/runsc.sh" "$row" state "$id" | awk -F'[:,]' '/"pid"/ { gsub(/ /, "", $2); print $2; exit }')
rss=0
if [ -n "$pid" ]; then
  # the sandbox process and its descendants (gofer excluded: it is a sibling)
  for p in $pid $(ps -o pid= --ppid "$pid" 2>/dev/null); do
    r=$(awk '/^VmRSS:/ { print $2 }' "/proc/$p/status" 2>/dev/null || echo 0); rss=$((rss + ${r:-0}))
  done
fi
t0=$(date +%s%N)
"$here/runsc.sh" "$row" checkpoint --image-path "$d/image" "$id" >&2
t1=$(date +%s%N)
echo "checkpoint_ms=$(( (t1 - t0) / 1000000 ))"
echo "image_bytes=$(du -sb "$d/image" | cut -f1)"
echo "app_rss_kb=$rss"
