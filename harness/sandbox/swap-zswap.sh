#!/bin/sh
# A swap file of SIZE_MIB under ROW_DIR, swapped on, and zswap enabled for the
# row: the swap file is recorded in ROW_DIR/swaps.list and zswap's parameter
# (with its value before) in ROW_DIR/sysfs.restore, so gvisor-sweep.sh swaps
# the file off and puts the parameter back on exit, error and signal.
# Prints swap_mib= (the compressor is zswap's default, named in the report).
#
#   swap-zswap.sh ROW_DIR SIZE_MIB
set -eu
[ $# -eq 2 ] || { echo "usage: swap-zswap.sh ROW_DIR SIZE_MIB" >&2; exit 64; }
row=$(cd "$1" && pwd -P); mib=$2
param=/sys/module/zswap/parameters/enabled
[ -w "$param" ] || { echo "swap-zswap: the kernel has no zswap ($param)" >&2; exit 65; }
file="$row/swapfile"
echo "$file" >> "$row/swaps.list"
# recorded before it is changed, so a crash between the two still restores it
grep -q "^$param	" "$row/sysfs.restore" 2>/dev/null || printf '%s\t%s\n' "$param" "$(cat "$param")" >> "$row/sysfs.restore"
dd if=/dev/zero of="$file" bs=1M count="$mib" status=none
chmod 600 "$file"
mkswap -q "$file" >/dev/null
swapon "$file"
echo Y > "$param"
echo "swap_mib=$mib"
