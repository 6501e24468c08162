#!/bin/sh
# runsc with the project's fixed flags: a private state folder under ROW_DIR,
# the ptrace platform (no KVM platform is used), --ignore-cgroups (the sandbox
# stays in the caller's cgroup, so a blkio throttle the caller joined applies
# to it; runsc would otherwise move it to a cgroup of its own), and no network unless
# GVISOR_NETWORK says otherwise (only 'sandbox' with a netns path in the spec,
# which gvisor-bundle.sh writes for a private namespace).
#
#   runsc.sh ROW_DIR SUBCOMMAND [ARG...]
set -eu
[ $# -ge 2 ] || { echo "usage: runsc.sh ROW_DIR SUBCOMMAND [ARG...]" >&2; exit 64; }
row=$1; shift
mkdir -p "$row/runsc-state"
exec runsc --root "$row/runsc-state" --platform=ptrace --ignore-cgroups --network="${GVISOR_NETWORK:-none}" "$@"
