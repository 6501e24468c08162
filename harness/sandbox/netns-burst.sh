#!/bin/sh
# N crun containers started at once, each in a private network namespace of
# its own (loopback only), over ROOTFS read-only:
#   fresh:   each namespace is built inside the launch (ip netns add, lo up),
#   claimed: the namespaces pool-1..N were built ahead (`netns-burst.sh
#            ROW_DIR ROOTFS N pool`, an unmeasured prepare step) and are claimed.
# MARKER once every container has printed its line and exited 0; then every
# namespace is deleted either way (Completion includes it for both).
#
#   netns-burst.sh ROW_DIR ROOTFS N fresh|claimed|pool MARKER
set -eu
[ $# -ge 4 ] || { echo "usage: netns-burst.sh ROW_DIR ROOTFS N fresh|claimed|pool [MARKER]" >&2; exit 64; }
row=$(cd "$1" && pwd -P); rootfs=$2; n=$3; mode=$4; marker=${5:-}
here=$(cd "$(dirname "$0")" && pwd -P)
name() { if [ "$mode" = fresh ]; then echo "fresh-$$-$1"; else echo "pool-$1"; fi; }
if [ "$mode" = pool ]; then
  i=1; while [ $i -le "$n" ]; do "$here/netns.sh" "$row" add "pool-$i"; i=$((i + 1)); done
  exit 0
fi
case "$mode" in fresh|claimed) ;; *) echo "netns-burst: mode must be fresh, claimed or pool, not $mode" >&2; exit 64;; esac
[ -n "$marker" ] || { echo "netns-burst: no MARKER" >&2; exit 64; }
work="$row/burst-$$"
cleanup() {
  i=1; while [ $i -le "$n" ]; do "$here/netns.sh" "$row" del "$(name $i)" 2>/dev/null || true; i=$((i + 1)); done
  rm -rf "$work" "$row"/crun-b$$-*
}
trap cleanup EXIT
trap 'exit 143' INT TERM
mkdir -p "$work"
one() {
  if [ "$mode" = fresh ]; then "$here/netns.sh" "$row" add "$(name "$1")"; fi
  "$here/crun-in-netns.sh" "$row" "$rootfs" "$(name "$1")" run "b$$-$1" -- /bin/sh -c 'echo "container $0 up"' "$1" </dev/null >"$work/$1.out" 2>&1
}
pids=""
i=1
while [ $i -le "$n" ]; do one "$i" & pids="$pids $!"; i=$((i + 1)); done
failed=0
for p in $pids; do wait "$p" || failed=$((failed + 1)); done
[ $failed -eq 0 ] || { tail -n 3 "$work"/*.out >&2; echo "netns-burst: $failed of $n containers failed" >&2; exit 71; }
i=1
while [ $i -le "$n" ]; do grep -qx "container $i up" "$work/$i.out" || { echo "netns-burst: container $i printed no line" >&2; exit 72; }; i=$((i + 1)); done
echo "$marker"
