#!/bin/sh
# A private network namespace of a row, named benchgraph-<row folder>-NAME,
# with only its loopback (up); recorded in ROW_DIR/netns.list so
# gvisor-sweep.sh deletes it whatever happens. Prints nothing.
#
#   netns.sh ROW_DIR add|del NAME
set -eu
[ $# -eq 3 ] || { echo "usage: netns.sh ROW_DIR add|del NAME" >&2; exit 64; }
row=$(cd "$1" && pwd -P); op=$2
ns="benchgraph-$(basename "$row")-$3"
case "$op" in
  add)
    grep -qx "$ns" "$row/netns.list" 2>/dev/null || echo "$ns" >> "$row/netns.list"
    ip netns add "$ns"
    ip -n "$ns" link set lo up
    ;;
  del) ip netns del "$ns" ;;
  *) echo "netns: op must be add or del, not $op" >&2; exit 64 ;;
esac
