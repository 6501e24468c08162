#!/bin/sh
# Benchmark (not a test), issue 18 item 7: is the carryover a property of the
# data folder's file system? Runs bench/carryover-probe (keep against delete)
# with its trees on fresh loop-mounted ext4 file systems, one mounted with
# online discard (as this host's / is) and one without, and on a tmpfs. Each
# file system is made for the run and removed on exit, error or signal.
#   bench/carryover-fs-probe.sh OCI_LAYOUT_DIR [REPS]      (root; writes carryover-fs-*.csv)
set -eu
layout=$1; reps=${2:-4}
here=$(cd "$(dirname "$0")/.." && pwd -P)
base=$(mktemp -d "$here/.data/carryover-fs-XXXXXX")
cleanup() {
  for m in "$base"/m-*; do mountpoint -q "$m" 2>/dev/null && umount "$m"; done
  rm -rf "$base"
}
trap cleanup EXIT INT TERM
for kind in discard nodiscard tmpfs; do
  m="$base/m-$kind"; mkdir -p "$m"
  if [ "$kind" = tmpfs ]; then
    mount -t tmpfs -o size=3g tmpfs "$m"
  else
    truncate -s 4G "$base/$kind.img"
    mkfs.ext4 -q -F "$base/$kind.img"
    mount -o "loop,$kind" "$base/$kind.img" "$m"
  fi
  echo "== $kind: $(grep " $m " /proc/mounts | cut -d' ' -f1,3,4)"
  node "$here/dist/bench/carryover-probe.js" "$layout" --conditions keep,delete --reps "$reps" --washout-s 10 --dir "$m" --out "carryover-fs-$kind.csv" | tail -4
  umount "$m"
done
