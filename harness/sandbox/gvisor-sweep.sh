#!/bin/sh
# Undoes everything a row made under ROW_DIR; idempotent, safe after a crash
# or a signal:
#   every sandbox in ROW_DIR/runsc-state (runsc kill, runsc delete -force), and
#   every crun container in ROW_DIR/crun-state (crun kill, crun delete -f), and
#   any runsc process still running with that state folder (by pid);
#   every cgroup listed in ROW_DIR/cgroups.list (its processes killed, then rmdir);
#   every swap file listed in ROW_DIR/swaps.list (swapoff), and every zswap
#   parameter in ROW_DIR/sysfs.restore set back to the value it had;
#   every mount at or under ROW_DIR (newest first);
#   every loop device whose backing file is under ROW_DIR;
#   every network namespace listed in ROW_DIR/netns.list.
# Exit 1 if something could not be undone (it is named on stderr).
#
#   gvisor-sweep.sh ROW_DIR [--remove]   (--remove also deletes ROW_DIR)
set -u
[ $# -ge 1 ] || { echo "usage: gvisor-sweep.sh ROW_DIR [--remove]" >&2; exit 64; }
[ -d "$1" ] || exit 0
row=$(cd "$1" && pwd -P)
case "$row" in /|/tmp|/var|/home|/root|/usr) echo "gvisor-sweep: refusing to sweep $row" >&2; exit 64;; esac
here=$(cd "$(dirname "$0")" && pwd -P)
status=0

state="$row/runsc-state"
if [ -d "$state" ]; then
  for id in $(runsc --root "$state" list -quiet 2>/dev/null); do
    runsc --root "$state" kill "$id" KILL >/dev/null 2>&1 || true
    runsc --root "$state" delete -force "$id" >/dev/null 2>&1 || true
  done
  # runsc processes of this state folder that outlived their container record
  for p in /proc/[0-9]*; do
    pid=${p#/proc/}
    { tr '\0' ' ' < "$p/cmdline"; } 2>/dev/null | grep -q -- "--root=\?$state " || continue
    kill -KILL "$pid" 2>/dev/null || true
  done
fi

# crun containers of the row (crun-in-netns.sh)
if [ -d "$row/crun-state" ]; then
  for id in $(crun --root "$row/crun-state" list -q 2>/dev/null); do
    crun --root "$row/crun-state" kill "$id" KILL >/dev/null 2>&1 || true
    crun --root "$row/crun-state" delete -f "$id" >/dev/null 2>&1 || true
  done
fi

if [ -f "$row/cgroups.list" ]; then
  while IFS= read -r cg; do
    case "$cg" in /sys/fs/cgroup/*/benchgraph-*) ;; *) continue;; esac
    [ -d "$cg" ] || continue
    for pid in $(cat "$cg/cgroup.procs" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
    i=0
    while ! rmdir "$cg" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    [ -d "$cg" ] && { echo "gvisor-sweep: cgroup $cg is still there" >&2; status=1; }
  done < "$row/cgroups.list"
fi

# swap files of the row (swap-zswap.sh), then kernel parameters it changed, back to their values before
if [ -f "$row/swaps.list" ]; then
  while IFS= read -r f; do
    case "$f" in "$row"/*) ;; *) continue;; esac
    grep -q "^$f " /proc/swaps 2>/dev/null || continue
    swapoff "$f" 2>/dev/null || { echo "gvisor-sweep: could not swap off $f" >&2; status=1; }
  done < "$row/swaps.list"
fi
if [ -f "$row/sysfs.restore" ]; then
  while IFS="$(printf '\t')" read -r param value; do
    case "$param" in /sys/module/zswap/parameters/*) ;; *) continue;; esac
    echo "$value" > "$param" 2>/dev/null || { echo "gvisor-sweep: could not set $param back to $value" >&2; status=1; }
  done < "$row/sysfs.restore"
fi

mounts_under() {
  awk -v r="$row" '{ p = $5; gsub(/\\040/, " ", p); if (p == r || index(p, r "/") == 1) print NR "\t" p }' /proc/self/mountinfo |
    sort -rn | cut -f2-
}
for _ in 1 2 3; do
  list=$(mounts_under)
  [ -z "$list" ] && break
  echo "$list" | while IFS= read -r m; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
done
left=$(mounts_under)
[ -z "$left" ] || { echo "gvisor-sweep: still mounted: $left" >&2; status=1; }

for f in /sys/block/loop*/loop/backing_file; do
  [ -r "$f" ] || continue
  b=$(cat "$f" 2>/dev/null) || continue
  case "$b" in "$row"/*)
    dev=/dev/$(basename "$(dirname "$(dirname "$f")")")
    losetup -d "$dev" 2>/dev/null || { echo "gvisor-sweep: could not detach $dev ($b)" >&2; status=1; }
  ;; esac
done

if [ -f "$row/netns.list" ]; then
  while IFS= read -r ns; do
    case "$ns" in benchgraph-*) ;; *) continue;; esac
    [ -e "/run/netns/$ns" ] || continue
    ip netns del "$ns" 2>/dev/null || { echo "gvisor-sweep: could not delete netns $ns" >&2; status=1; }
  done < "$row/netns.list"
fi

if [ "${2:-}" = "--remove" ] && [ $status -eq 0 ]; then rm -rf "$row"; fi
exit $status
