#!/bin/sh
# N fresh gVisor sandboxes (runsc run of a shell over ROOTFS, each in its own
# overlay, harness/paths/gvisor-run.sh), started one after another (serial)
# or all at once (parallel); MARKER once every sandbox has printed its line
# and exited 0. The workspaces are removed after the marker (Completion only).
#
#   gvisor-many.sh ROW_DIR ROOTFS N serial|parallel MARKER
set -eu
[ $# -eq 5 ] || { echo "usage: gvisor-many.sh ROW_DIR ROOTFS N serial|parallel MARKER" >&2; exit 64; }
row=$(cd "$1" && pwd -P); rootfs=$2; n=$3; mode=$4; marker=$5
case "$mode" in serial|parallel) ;; *) echo "gvisor-many: mode must be serial or parallel, not $mode" >&2; exit 64;; esac
run="$(cd "$(dirname "$0")/../paths" && pwd -P)/gvisor-run.sh"
work="$row/many-$$"
trap 'rm -rf "$work"' EXIT
trap 'exit 143' INT TERM
mkdir -p "$work"
one() { "$run" "$rootfs" "$work/$1" -- /bin/sh -c 'echo "sandbox $0 up"' "$1" </dev/null >"$work/$1.out" 2>&1; }
failed=0
i=1
if [ "$mode" = serial ]; then
  while [ $i -le "$n" ]; do one "$i" || failed=$((failed + 1)); i=$((i + 1)); done
else
  pids=""
  while [ $i -le "$n" ]; do one "$i" & pids="$pids $!"; i=$((i + 1)); done
  for p in $pids; do wait "$p" || failed=$((failed + 1)); done
fi
[ $failed -eq 0 ] || { tail -n 3 "$work"/*.out >&2; echo "gvisor-many: $failed of $n sandboxes failed" >&2; exit 71; }
i=1
while [ $i -le "$n" ]; do grep -qx "sandbox $i up" "$work/$i.out" || { echo "gvisor-many: sandbox $i printed no line" >&2; exit 72; }; i=$((i + 1)); done
echo "$marker"
