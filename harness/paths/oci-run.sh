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
OCI_VERSION=1.0.2 OCI_ARGS=$(json_args "$@") OCI_ENV="$OCI_ENV_PATH, \"HOSTNAME=bench\"" OCI_CAPS_LIST=$OCI_CAPS
OCI_RLIMITS="{ \"type\": \"RLIMIT_NOFILE\", \"hard\": $nofile, \"soft\": $nofile }"
OCI_ROOT=$ws/rootfs OCI_READONLY=false OCI_NET=$OCI_NS_NET
OCI_MOUNTS=$(oci_mounts "$OCI_MOUNT_PROC" "$OCI_MOUNT_DEV" "$OCI_MOUNT_DEVPTS" "$OCI_MOUNT_SHM" "$OCI_MOUNT_MQUEUE" "$OCI_MOUNT_SYS")
OCI_LINUX_EXTRA=',
    "maskedPaths": [ "/proc/acpi", "/proc/kcore", "/proc/keys", "/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats", "/proc/sched_debug", "/sys/firmware", "/proc/scsi" ],
    "readonlyPaths": [ "/proc/asound", "/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger" ]'
oci_config "$ws/config.json"

exec unshare --mount --propagation private /bin/sh -c '
  set -e
  mount -t overlay overlay -o "lowerdir=$1,upperdir=$2/upper,workdir=$2/work" "$2/rootfs"
  if [ -d /sys/fs/cgroup/unified ] && grep -q " /sys/fs/cgroup/unified cgroup2 " /proc/self/mounts; then
    umount -l /sys/fs/cgroup/unified
  fi
  exec crun --root "$2/crun-state" run --bundle "$2" "$3"
' oci-run "$lower" "$ws" "$id"
