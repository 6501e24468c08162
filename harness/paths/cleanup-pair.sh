#!/bin/sh
# Teardown of a pair (after_pair) and safety net for a session (after_session,
# or after a crash) of the lazy, oci-full and estargz paths; idempotent. Under ROOT,
# unmounts every mount (newest first: overlays, erofs, then the rclone or
# eStargz FUSE mounts they read from; a busy one lazily), waits until no loop
# device reads a file under ROOT any more, then stops every rclone and
# estargz-mount these paths started there (pid files rclone.pid and
# estargz-mount.pid whose process is still that server of that mount point),
# by pid, waiting until each is gone. Running it again, or on a folder with nothing mounted,
# does nothing and exits 0.
#
#   cleanup-pair.sh ROOT [--remove]   (--remove also deletes ROOT/lazy, ROOT/oci and ROOT/estargz)
set -u
[ $# -ge 1 ] || { echo "usage: cleanup-pair.sh ROOT [--remove]" >&2; exit 64; }
[ -d "$1" ] || exit 0
root=$(cd "$1" && pwd -P)
case "$root" in /|/tmp|/var|/home|/root|/usr) echo "cleanup-pair: refusing to clean $root" >&2; exit 64;; esac
status=0

mounts_under() {
  # mount points (field 5 of mountinfo) at or under $root, newest mount first
  # (mountinfo lists mounts in the order they were made)
  awk -v r="$root" '{ p = $5; gsub(/\\040/, " ", p); if (p == r || index(p, r "/") == 1) print NR "\t" p }' /proc/self/mountinfo |
    sort -rn | cut -f2-
}

# Before anything is unmounted (unmounting makes rclone exit by itself): a pid
# file whose rclone is gone means rclone died under the pair (e.g. kill -9; a
# clean stop below removes the pid file). The launches it served read from a
# dead mount: say so (the pair's launches fail naming it) and exit 1. The
# finding is kept next to the pid file (rclone.died) until the folder is
# removed, so the pair's teardown reports it even when the launch's own
# cleanup saw it first.
died=$(find "$root" \( -name rclone.pid -o -name estargz-mount.pid \) -type f 2>/dev/null | while IFS= read -r f; do
  pid=$(cat "$f" 2>/dev/null) || continue
  case "$pid" in ''|*[!0-9]*) continue;; esac
  if ! { [ -d "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; }; then
    mnt=$(cat "${f%.pid}.mountpoint" 2>/dev/null || echo "")
    echo "cleanup-pair: $(basename "${f%.pid}") (pid $pid) serving $mnt died before teardown" > "${f%.pid}.died"
  fi
done; find "$root" \( -name rclone.died -o -name estargz-mount.died \) -type f -exec cat {} + 2>/dev/null)
[ -n "$died" ] && status=1

for _ in 1 2 3; do
  list=$(mounts_under)
  [ -z "$list" ] && break
  echo "$list" | while IFS= read -r m; do
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
  done
done
# erofs was mounted through a loop device (autoclear): let it let go of the
# image file before rclone, which serves that file, is stopped.
loops_busy() {
  for f in /sys/block/loop*/loop/backing_file; do
    [ -r "$f" ] || continue
    b=$(cat "$f" 2>/dev/null) || continue
    case "$b" in "$root"/*) return 0;; esac
  done
  return 1
}
i=0
while loops_busy && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
if loops_busy; then echo "cleanup-pair: a loop device still reads a file under $root" >&2; status=1; fi
left=$(mounts_under)
if [ -n "$left" ]; then echo "cleanup-pair: still mounted: $left" >&2; status=1; fi

# Each pid file's process is stopped only while it is still the server this
# path started for that mount point (its command line names both).
find "$root" \( -name rclone.pid -o -name estargz-mount.pid \) -type f 2>/dev/null | while IFS= read -r f; do
  pid=$(cat "$f" 2>/dev/null) || continue
  case "$pid" in ''|*[!0-9]*) continue;; esac
  mnt=$(cat "${f%.pid}.mountpoint" 2>/dev/null || echo "")
  case "$f" in */rclone.pid) pattern="rclone mount .* $mnt ";; *) pattern="$(basename "${f%.pid}") .*-mnt $mnt ";; esac
  if [ -n "$mnt" ] && [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q "$pattern"; then
    kill -TERM "$pid" 2>/dev/null || true
    i=0
    while [ -d "/proc/$pid" ] && [ $i -lt 100 ]; do
      # a zombie is gone for our purposes
      grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null && break
      sleep 0.05; i=$((i + 1))
    done
    [ -d "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
  fi
  rm -f "$f"
done

if [ "${2:-}" = "--remove" ] && [ -z "$(mounts_under)" ]; then rm -rf "$root/lazy" "$root/oci" "$root/estargz"; fi
# last, so a hook's failure reason (its last line) names it
[ -n "$died" ] && echo "$died" >&2
exit $status
