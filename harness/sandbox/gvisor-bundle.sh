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
OCI_VERSION=1.0.0 OCI_ARGS=$(json_args "$@") OCI_ENV="$OCI_ENV_PATH, \"PYTHONDONTWRITEBYTECODE=1\"" OCI_CAPS_LIST='"CAP_KILL", "CAP_NET_BIND_SERVICE"' OCI_RLIMITS=
OCI_ROOT=$rootfs OCI_READONLY=true OCI_LINUX_EXTRA=
if [ -n "${NETNS_PATH:-}" ]; then OCI_NET="{ \"type\": \"network\", \"path\": \"$NETNS_PATH\" }"; else OCI_NET=$OCI_NS_NET; fi
OCI_MOUNTS=$(oci_mounts "$OCI_MOUNT_PROC" "$OCI_MOUNT_DEV" "$OCI_MOUNT_TMP" "$OCI_MOUNT_SYS")
oci_config "$bundle/config.json.tmp"
mv "$bundle/config.json.tmp" "$bundle/config.json"
