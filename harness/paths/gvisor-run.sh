#!/bin/sh
# Runs one command in a fresh gVisor sandbox: the same fresh overlay upper
# layer (under the launch's workspace) over a read-only lower root as
# oci-run.sh, then `runsc run` instead of crun: the ptrace platform (no KVM
# platform), --network=none (loopback only, inside the sandbox), a private
# --root state folder in the workspace, --ignore-cgroups. The sandbox is
# deleted before the script exits, whatever happens.
#
#   gvisor-run.sh LOWER_DIR WORKSPACE -- CMD [ARG...]
#
# The overlay is mounted inside a private mount namespace (unshare -m); runsc
# and its gofer start inside it, so nothing is left mounted on the host.
# Exit code: the command's.
set -eu

[ $# -ge 3 ] && [ "$3" = "--" ] || { echo "usage: gvisor-run.sh LOWER_DIR WORKSPACE -- CMD [ARG...]" >&2; exit 64; }
lower=$1; ws=$2; shift 3
[ -d "$lower" ] || { echo "gvisor-run: lower root $lower is not a folder" >&2; exit 65; }
mkdir -p "$ws"
ws=$(cd "$ws" && pwd -P)
mkdir "$ws/upper" "$ws/work" "$ws/rootfs" "$ws/runsc-state"
id="bg-$(basename "$ws")-$$"

. "$(dirname "$0")/oci-config-lib.sh"
args_json=$(json_args "$@")
caps=$OCI_CAPS
cat > "$ws/config.json" <<JSON
{
  "ociVersion": "1.0.0",
  "process": {
    "terminal": false,
    "user": { "uid": 0, "gid": 0 },
    "args": [ $args_json ],
    "env": [ "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root", "HOSTNAME=bench" ],
    "cwd": "/",
    "capabilities": { "bounding": [ $caps ], "effective": [ $caps ], "permitted": [ $caps ] },
    "noNewPrivileges": true
  },
  "root": { "path": "$ws/rootfs", "readonly": false },
  "hostname": "bench",
  "mounts": [
    { "destination": "/proc", "type": "proc", "source": "proc" },
    { "destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": [ "nosuid", "strictatime", "mode=755", "size=65536k" ] },
    { "destination": "/dev/shm", "type": "tmpfs", "source": "shm", "options": [ "nosuid", "noexec", "nodev", "mode=1777", "size=65536k" ] },
    { "destination": "/sys", "type": "sysfs", "source": "sysfs", "options": [ "nosuid", "noexec", "nodev", "ro" ] }
  ],
  "linux": {
    "namespaces": [ { "type": "pid" }, { "type": "network" }, { "type": "ipc" }, { "type": "uts" }, { "type": "mount" } ]
  }
}
JSON

exec unshare --mount --propagation private /bin/sh -c '
  set -e
  lower=$1; ws=$2; id=$3
  mount -t overlay overlay -o "lowerdir=$lower,upperdir=$ws/upper,workdir=$ws/work" "$ws/rootfs"
  rs() { runsc --root "$ws/runsc-state" --platform=ptrace --network=none --ignore-cgroups "$@"; }
  trap "rs delete -force \"\$id\" >/dev/null 2>&1 || true" EXIT
  trap "exit 143" INT TERM
  set +e
  rs run --bundle "$ws" "$id" </dev/null
  exit $?
' gvisor-run "$lower" "$ws" "$id"
