#!/bin/sh
# One measured start of a container in a private network namespace:
#   fresh:   the namespace is built inside the launch (ip netns add, lo up),
#   claimed: the namespace NAME=pool was built ahead (netns.sh ROW_DIR add pool,
#            an unmeasured prepare step) and is claimed by the container.
# The container prints MARKER (Ready); then the namespace is deleted either
# way, after the container exited (so Completion includes it for both).
#
#   netns-start.sh ROW_DIR ROOTFS fresh|claimed MARKER
set -eu
[ $# -eq 4 ] || { echo "usage: netns-start.sh ROW_DIR ROOTFS fresh|claimed MARKER" >&2; exit 64; }
row=$1; rootfs=$2; mode=$3; marker=$4
here=$(cd "$(dirname "$0")" && pwd -P)
case "$mode" in
  fresh) name="fresh-$$"; "$here/netns.sh" "$row" add "$name" ;;
  claimed) name=pool ;;
  *) echo "netns-start: mode must be fresh or claimed, not $mode" >&2; exit 64 ;;
esac
trap '"$here/netns.sh" "$row" del "$name" 2>/dev/null || true' EXIT
trap 'exit 143' INT TERM
"$here/crun-in-netns.sh" "$row" "$rootfs" "$name" run "c$$" -- /bin/sh -c 'echo "$0"' "$marker"
