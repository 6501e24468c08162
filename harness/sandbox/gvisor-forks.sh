#!/bin/sh
# N children restored at once from a checkpoint image, then the marker once
# every restore has returned; then every child is killed and deleted.
#   shared: every child restores from IMAGE_DIR itself;
#   copies: each child first copies IMAGE_DIR to a folder of its own (the
#           copies are removed at the end).
#
#   gvisor-forks.sh ROW_DIR BUNDLE IMAGE_DIR N shared|copies MARKER
set -eu
[ $# -eq 6 ] || { echo "usage: gvisor-forks.sh ROW_DIR BUNDLE IMAGE_DIR N shared|copies MARKER" >&2; exit 64; }
row=$1; bundle=$2; image=$3; n=$4; mode=$5; marker=$6
case "$mode" in shared|copies) ;; *) echo "gvisor-forks: mode must be shared or copies, not $mode" >&2; exit 64;; esac
here=$(cd "$(dirname "$0")" && pwd -P)
copies="$row/fork-copies-$$"
cleanup() {
  # children are removed side by side (a runsc delete takes over a second here)
  i=1
  while [ $i -le "$n" ]; do
    ( "$here/runsc.sh" "$row" kill "fork-$$-$i" KILL >/dev/null 2>&1 || true
      "$here/runsc.sh" "$row" delete -force "fork-$$-$i" >/dev/null 2>&1 || true ) &
    i=$((i + 1))
  done
  wait
  rm -rf "$copies"
}
trap cleanup EXIT
trap 'exit 143' INT TERM
mkdir -p "$copies"
pids=""
i=1
while [ $i -le "$n" ]; do
  (
    img=$image
    if [ "$mode" = copies ]; then img="$copies/$i"; cp -r "$image" "$img"; fi
    exec "$here/runsc.sh" "$row" restore -detach --bundle "$bundle" --image-path "$img" "fork-$$-$i" </dev/null >"$copies/$i.out" 2>&1
  ) &
  pids="$pids $!"
  i=$((i + 1))
done
failed=0
for p in $pids; do wait "$p" || failed=$((failed + 1)); done
[ $failed -eq 0 ] || { cat "$copies"/*.out >&2; echo "gvisor-forks: $failed of $n restores failed" >&2; exit 71; }
echo "$marker"
