#!/bin/sh
# One launch of the zswap rows on the app gvisor-app-memcg.sh started: the
# sandbox is paused (frozen), its pages are reclaimed from its memory cgroup (none: not reclaimed; zswap: into zswap; disk: to the swap
# file, zswap off), the held memory is read, the sandbox resumed, and the
# app touches every page of its heap (SIGUSR1; it prints TOUCHED when done). Prints held_mib= (the cgroup's memory after the
# reclaim plus what zswap's pool grew by: the compressed copies are memory
# too), usage_mib= and zswap_pool_mib= (its two parts), and touch_ms=
# (the app's own time to touch every page after the thaw, on its clock;
# it prints TOUCHED SUM MS), then MARKER.
# Every page is back in memory when it exits.
#
#   zswap-touch.sh ROW_DIR NAME none|zswap|disk MARKER
set -eu
[ $# -eq 4 ] || { echo "usage: zswap-touch.sh ROW_DIR NAME none|zswap|disk MARKER" >&2; exit 64; }
row=$(cd "$1" && pwd -P); name=$2; mode=$3; marker=$4
here=$(cd "$(dirname "$0")" && pwd -P)
d="$row/$name"; cg=$(cat "$d/cgroup"); id=$(cat "$d/id")
param=/sys/module/zswap/parameters/enabled
rs() { "$here/runsc.sh" "$row" "$@"; }
zswap_kb() { awk '/^Zswap:/ { print $2 }' /proc/meminfo; }
case "$mode" in none) ;; zswap) echo Y > "$param" ;; disk) echo N > "$param" ;; *) echo "zswap-touch: mode must be none, zswap or disk, not $mode" >&2; exit 64;; esac
# whatever happens, the sandbox runs again
trap 'echo -1 > "$cg/memory.limit_in_bytes" 2>/dev/null || true; rs resume "$id" >/dev/null 2>&1 || true' EXIT
trap 'exit 143' INT TERM
rs pause "$id"
z0=$(zswap_kb)
if [ "$mode" != none ]; then
  # cgroup v1 has no memory.reclaim: a limit written below the usage reclaims until it fits, and
  # memory.force_empty reclaims what it can; pages touched just before are promoted back to the active
  # list and need more passes, so both are repeated until at most 4 MiB stay (or 10 passes). The sandbox
  # is paused: all its pages are cold.
  i=0
  while [ "$(cat "$cg/memory.usage_in_bytes")" -gt 4194304 ] && [ $i -lt 10 ]; do
    echo 4194304 > "$cg/memory.limit_in_bytes" 2>/dev/null || true
    echo 0 > "$cg/memory.force_empty" 2>/dev/null || true
    i=$((i + 1))
  done
  echo -1 > "$cg/memory.limit_in_bytes"
fi
usage_kb=$(( $(cat "$cg/memory.usage_in_bytes") / 1024 )); pool_kb=$(( $(zswap_kb) - z0 )); held_kb=$((usage_kb + pool_kb))
rs resume "$id"
before=$(grep -c '^TOUCHED' "$d/app.out" || true)
rs kill "$id" USR1
i=0
until [ "$(grep -c '^TOUCHED' "$d/app.out" || true)" -gt "$before" ]; do
  [ $i -lt 60000 ] || { echo "zswap-touch: the app did not touch its heap within 60 s" >&2; exit 70; }
  sleep 0.001; i=$((i + 1))
done
echo "held_mib=$((held_kb / 1024))"
echo "usage_mib=$((usage_kb / 1024))"
echo "zswap_pool_mib=$((pool_kb / 1024))"
# the app's own clock around its touch (TOUCHED SUM MS), so the runsc kill that asks for it is not counted
echo "touch_ms=$(grep '^TOUCHED' "$d/app.out" | tail -n 1 | awk '{ print $3 }')"
echo "$marker"
# after the marker (Completion only): the swap file's slots are freed, so no page of the next launch is
# dropped as already written to disk instead of going where its mode sends it
if [ -f "$row/swapfile" ] && grep -q "^$row/swapfile " /proc/swaps; then swapoff "$row/swapfile" && swapon "$row/swapfile"; fi
