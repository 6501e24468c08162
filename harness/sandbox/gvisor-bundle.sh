#!/bin/sh
# Writes an OCI bundle for runsc: BUNDLE/config.json over a read-only ROOTFS,
# a tmpfs at /tmp (inside the sandbox, so it is part of a checkpoint), no
# terminal, and only the namespaces gVisor needs. With NETNS_PATH set, the
# network namespace is that path (a private namespace made by netns.sh);
# otherwise a new one, which --network=none leaves with loopback only.
#
#   gvisor-bundle.sh ROOTFS BUNDLE -- CMD [ARG...]
set -eu
[ $# -ge 4 ] && [ "$3" = "--" ] || { echo "usage: gvisor-bundle.sh ROOTFS BUNDLE -- CMD [ARG...]" >&2; exit 64; }
rootfs=$(cd "$1" && pwd -P); bundle=$2; shift 3
mkdir -p "$bundle"
. "$(dirname "$0")/../paths/oci-config-lib.sh"
args_json=$(json_args "$@")
if [ -n "${NETNS_PATH:-}" ]; then net="{ \"type\": \"network\", \"path\": \"$NETNS_PATH\" }"; else net='{ "type": "network" }'; fi
cat > "$bundle/config.json.tmp" <<JSON
{
  "ociVersion": "1.0.0",
  "process": {
    "terminal": false,
    "user": { "uid": 0, "gid": 0 },
    "args": [ $args_json ],
    "env": [ "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root", "PYTHONDONTWRITEBYTECODE=1" ],
    "cwd": "/",
    "capabilities": { "bounding": [ "CAP_KILL", "CAP_NET_BIND_SERVICE" ], "effective": [ "CAP_KILL", "CAP_NET_BIND_SERVICE" ], "permitted": [ "CAP_KILL", "CAP_NET_BIND_SERVICE" ] },
    "noNewPrivileges": true
  },
  "root": { "path": "$rootfs", "readonly": true },
  "hostname": "bench",
  "mounts": [
    { "destination": "/proc", "type": "proc", "source": "proc" },
    { "destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": [ "nosuid", "strictatime", "mode=755", "size=65536k" ] },
    { "destination": "/tmp", "type": "tmpfs", "source": "tmpfs", "options": [ "nosuid", "nodev", "mode=1777" ] },
    { "destination": "/sys", "type": "sysfs", "source": "sysfs", "options": [ "nosuid", "noexec", "nodev", "ro" ] }
  ],
  "linux": {
    "namespaces": [ { "type": "pid" }, $net, { "type": "ipc" }, { "type": "uts" }, { "type": "mount" } ]
  }
}
JSON
mv "$bundle/config.json.tmp" "$bundle/config.json"
