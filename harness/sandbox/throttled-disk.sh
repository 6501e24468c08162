#!/bin/sh
# A slow disk: an ext4 filesystem in a file under ROW_DIR on a loop device,
# mounted at ROW_DIR/NAME, holding a copy of SRC_DIR, and a cgroup v1 blkio
# group whose reads from that loop device are throttled to READ_BPS bytes/s
# (blkio.throttle.read_bps_device); READ_BPS 0 makes no cgroup (a plain disk).
# Writes the cgroup's folder to
# ROW_DIR/NAME.cgroup and records it in ROW_DIR/cgroups.list; gvisor-sweep.sh
# undoes all of it (unmount, loop detach, cgroup removal).
#
#   throttled-disk.sh ROW_DIR NAME SRC_DIR READ_BPS
set -eu
[ $# -eq 4 ] || { echo "usage: throttled-disk.sh ROW_DIR NAME SRC_DIR READ_BPS" >&2; exit 64; }
row=$(cd "$1" && pwd -P); name=$2; src=$3; bps=$4
blkio=/sys/fs/cgroup/blkio
[ "$bps" = 0 ] || [ -w "$blkio/cgroup.procs" ] || { echo "throttled-disk: cgroup v1 blkio is not mounted writable at $blkio" >&2; exit 65; }
src_kb=$(du -sk "$src" | cut -f1)
size_mb=$(( src_kb * 13 / 10 / 1024 + 64 ))
file="$row/$name.ext4"
rm -f "$file"
truncate -s "${size_mb}M" "$file"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$file"
dev=$(losetup --find --show "$file")
mkdir -p "$row/$name"
mount -t ext4 "$dev" "$row/$name"
cp -a "$src/." "$row/$name/"
sync
if [ "$bps" = 0 ]; then echo "plain_disk=$dev size_mb=$size_mb"; exit 0; fi
majmin=$(lsblk -ndo MAJ:MIN "$dev" | tr -d ' ')
cg="$blkio/benchgraph-$(basename "$row")-$name"
mkdir -p "$cg"
echo "$cg" >> "$row/cgroups.list"
echo "$majmin $bps" > "$cg/blkio.throttle.read_bps_device"
echo "$cg" > "$row/$name.cgroup"
echo "throttled_disk=$dev majmin=$majmin read_bps=$bps size_mb=$size_mb"
