#!/bin/sh
# Runs CMD in a crun container whose network namespace is the row's private
# namespace NAME (made by netns.sh: loopback only), over ROOTFS read-only.
# run: in the foreground; detach: started in the background (crun run
# --detach), to be stopped with `crun kill/delete` (gvisor-sweep.sh does it).
# crun runs in a private mount namespace where the cgroup2 half of a hybrid
# cgroup host is unmounted (crun 1.8 refuses hybrid hosts, as in oci-run.sh).
#
#   crun-in-netns.sh ROW_DIR ROOTFS NAME run|detach ID -- CMD [ARG...]
set -eu
[ $# -ge 7 ] && [ "$6" = "--" ] || { echo "usage: crun-in-netns.sh ROW_DIR ROOTFS NAME run|detach ID -- CMD [ARG...]" >&2; exit 64; }
row=$(cd "$1" && pwd -P); rootfs=$(cd "$2" && pwd -P); ns="benchgraph-$(basename "$row")-$3"; mode=$4; id=$5; shift 6
[ -e "/run/netns/$ns" ] || { echo "crun-in-netns: no network namespace $ns (netns.sh add first)" >&2; exit 65; }
b="$row/crun-$id"
mkdir -p "$b" "$row/crun-state"
. "$(dirname "$0")/../paths/oci-config-lib.sh"
OCI_VERSION=1.0.2 OCI_ARGS=$(json_args "$@") OCI_ENV="$OCI_ENV_PATH, \"PYTHONDONTWRITEBYTECODE=1\"" OCI_CAPS_LIST='"CAP_NET_BIND_SERVICE", "CAP_KILL"' OCI_RLIMITS=
OCI_ROOT=$rootfs OCI_READONLY=true OCI_NET="{ \"type\": \"network\", \"path\": \"/run/netns/$ns\" }" OCI_LINUX_EXTRA=
OCI_MOUNTS=$(oci_mounts "$OCI_MOUNT_PROC" "$OCI_MOUNT_DEV" "$OCI_MOUNT_TMP")
oci_config "$b/config.json"
case "$mode" in run) detach= ;; detach) detach=--detach ;; *) echo "crun-in-netns: mode must be run or detach, not $mode" >&2; exit 64 ;; esac
exec unshare --mount --propagation private /bin/sh -c '
  set -e
  if [ -d /sys/fs/cgroup/unified ] && grep -q " /sys/fs/cgroup/unified cgroup2 " /proc/self/mounts; then umount -l /sys/fs/cgroup/unified; fi
  exec crun --root "$1/crun-state" run $4 --bundle "$2" "$3"
' crun-in-netns "$row" "$b" "$id" "$detach"
