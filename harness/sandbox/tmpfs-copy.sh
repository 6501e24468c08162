#!/bin/sh
# A fast disk: a tmpfs mounted at ROW_DIR/NAME holding a copy of SRC_DIR.
# gvisor-sweep.sh unmounts it.
#
#   tmpfs-copy.sh ROW_DIR NAME SRC_DIR
set -eu
[ $# -eq 3 ] || { echo "usage: tmpfs-copy.sh ROW_DIR NAME SRC_DIR" >&2; exit 64; }
row=$(cd "$1" && pwd -P); name=$2; src=$3
mkdir -p "$row/$name"
mountpoint -q "$row/$name" || mount -t tmpfs -o mode=0700 tmpfs "$row/$name"
cp -a "$src/." "$row/$name/"
