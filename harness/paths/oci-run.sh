#!/bin/sh
# Runs one command in a fresh container with crun: a fresh overlay upper layer
# (under the launch's workspace) over a read-only lower root, its own pid,
# network, ipc, uts and mount namespaces, no network but loopback (down).
#
#   oci-run.sh LOWER_DIR WORKSPACE -- CMD [ARG...]
#
# The overlay is mounted inside a private mount namespace (unshare -m), so it
# disappears with the launch whatever happens: nothing is left mounted on the
# host. In that namespace only, the cgroup2 half of a hybrid cgroup host is
# unmounted, because crun 1.8 refuses hybrid hosts ("cgroups in hybrid mode not
# supported"); the host's own mounts are untouched. Exit code: the command's.
set -eu

[ $# -ge 3 ] && [ "$3" = "--" ] || { echo "usage: oci-run.sh LOWER_DIR WORKSPACE -- CMD [ARG...]" >&2; exit 64; }
lower=$1; ws=$2; shift 3
[ -d "$lower" ] || { echo "oci-run: lower root $lower is not a folder" >&2; exit 65; }
mkdir -p "$ws"
ws=$(cd "$ws" && pwd -P)
mkdir "$ws/upper" "$ws/work" "$ws/rootfs" "$ws/crun-state"
id="bg-$(basename "$ws")-$$"

# NOFILE limits of the container may not exceed the caller's hard limit.
nofile=$(ulimit -Hn); [ "$nofile" = unlimited ] && nofile=1048576

. "$(dirname "$0")/oci-config-lib.sh"
args_json=$(json_args "$@")
caps=$OCI_CAPS
cat > "$ws/config.json" <<JSON
{
  "ociVersion": "1.0.2",
  "process": {
    "terminal": false,
    "user": { "uid": 0, "gid": 0 },
    "args": [ $args_json ],
    "env": [ "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root", "HOSTNAME=bench" ],
    "cwd": "/",
    "capabilities": { "bounding": [ $caps ], "effective": [ $caps ], "permitted": [ $caps ] },
    "rlimits": [ { "type": "RLIMIT_NOFILE", "hard": $nofile, "soft": $nofile } ],
    "noNewPrivileges": true
  },
  "root": { "path": "$ws/rootfs", "readonly": false },
  "hostname": "bench",
  "mounts": [
    { "destination": "/proc", "type": "proc", "source": "proc" },
    { "destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": [ "nosuid", "strictatime", "mode=755", "size=65536k" ] },
    { "destination": "/dev/pts", "type": "devpts", "source": "devpts", "options": [ "nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620" ] },
    { "destination": "/dev/shm", "type": "tmpfs", "source": "shm", "options": [ "nosuid", "noexec", "nodev", "mode=1777", "size=65536k" ] },
    { "destination": "/dev/mqueue", "type": "mqueue", "source": "mqueue", "options": [ "nosuid", "noexec", "nodev" ] },
    { "destination": "/sys", "type": "sysfs", "source": "sysfs", "options": [ "nosuid", "noexec", "nodev", "ro" ] }
  ],
  "linux": {
    "namespaces": [ { "type": "pid" }, { "type": "network" }, { "type": "ipc" }, { "type": "uts" }, { "type": "mount" } ],
    "maskedPaths": [ "/proc/acpi", "/proc/kcore", "/proc/keys", "/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats", "/proc/sched_debug", "/sys/firmware", "/proc/scsi" ],
    "readonlyPaths": [ "/proc/asound", "/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger" ]
  }
}
JSON

exec unshare --mount --propagation private /bin/sh -c '
  set -e
  mount -t overlay overlay -o "lowerdir=$1,upperdir=$2/upper,workdir=$2/work" "$2/rootfs"
  if [ -d /sys/fs/cgroup/unified ] && grep -q " /sys/fs/cgroup/unified cgroup2 " /proc/self/mounts; then
    umount -l /sys/fs/cgroup/unified
  fi
  exec crun --root "$2/crun-state" run --bundle "$2" "$3"
' oci-run "$lower" "$ws" "$id"
