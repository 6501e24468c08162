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
OCI_VERSION=1.0.0 OCI_ARGS=$(json_args "$@") OCI_ENV="$OCI_ENV_PATH, \"HOSTNAME=bench\"" OCI_CAPS_LIST=$OCI_CAPS OCI_RLIMITS=
OCI_ROOT=$ws/rootfs OCI_READONLY=false OCI_NET=$OCI_NS_NET OCI_LINUX_EXTRA=
OCI_MOUNTS=$(oci_mounts "$OCI_MOUNT_PROC" "$OCI_MOUNT_DEV" "$OCI_MOUNT_SHM" "$OCI_MOUNT_SYS")
oci_config "$ws/config.json"

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
