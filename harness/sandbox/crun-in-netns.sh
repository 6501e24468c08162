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
args_json=$(json_args "$@")
cat > "$b/config.json" <<JSON
{
  "ociVersion": "1.0.2",
  "process": {
    "terminal": false, "user": { "uid": 0, "gid": 0 }, "args": [ $args_json ],
    "env": [ "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root", "PYTHONDONTWRITEBYTECODE=1" ],
    "cwd": "/", "noNewPrivileges": true,
    "capabilities": { "bounding": [ "CAP_NET_BIND_SERVICE", "CAP_KILL" ], "effective": [ "CAP_NET_BIND_SERVICE", "CAP_KILL" ], "permitted": [ "CAP_NET_BIND_SERVICE", "CAP_KILL" ] }
  },
  "root": { "path": "$rootfs", "readonly": true },
  "hostname": "bench",
  "mounts": [
    { "destination": "/proc", "type": "proc", "source": "proc" },
    { "destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": [ "nosuid", "strictatime", "mode=755", "size=65536k" ] },
    { "destination": "/tmp", "type": "tmpfs", "source": "tmpfs", "options": [ "nosuid", "nodev", "mode=1777" ] }
  ],
  "linux": {
    "namespaces": [ { "type": "pid" }, { "type": "network", "path": "/run/netns/$ns" }, { "type": "ipc" }, { "type": "uts" }, { "type": "mount" } ]
  }
}
JSON
case "$mode" in run) detach= ;; detach) detach=--detach ;; *) echo "crun-in-netns: mode must be run or detach, not $mode" >&2; exit 64 ;; esac
exec unshare --mount --propagation private /bin/sh -c '
  set -e
  if [ -d /sys/fs/cgroup/unified ] && grep -q " /sys/fs/cgroup/unified cgroup2 " /proc/self/mounts; then umount -l /sys/fs/cgroup/unified; fi
  exec crun --root "$1/crun-state" run $4 --bundle "$2" "$3"
' crun-in-netns "$row" "$b" "$id" "$detach"
