#!/bin/sh
# An after_cold hook of the lazy path (pipelines/image-reads.yaml): how many
# regular files of the image the cold launch read, i.e. have data in the page
# cache of the pair's fresh erofs mount (fincore), and how many the image has.
#
#   files-read.sh PAIR_DIR
#
# Prints `BENCHGRAPH-VALUE files_read N` and `BENCHGRAPH-VALUE image_files N`
# for the launch's row. Untimed, and after the launch's byte window closed;
# walking the tree reads the image's directories and inodes, so a warm launch
# after it would find them cached.
set -eu
[ $# -eq 1 ] || { echo "usage: files-read.sh PAIR_DIR" >&2; exit 64; }
lower="$1/lazy/lower"
mountpoint -q "$lower" || { echo "files-read: $lower is not mounted (did the cold launch mount it?)" >&2; exit 66; }
list="$1/lazy/files-read.txt"
find "$lower" -xdev -type f -print0 | xargs -0r fincore --bytes --noheadings --raw --output RES > "$list"
echo "BENCHGRAPH-VALUE files_read $(awk '$1 > 0 { n++ } END { print n + 0 }' "$list")"
echo "BENCHGRAPH-VALUE image_files $(wc -l < "$list")"
