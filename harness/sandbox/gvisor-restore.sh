#!/bin/sh
# One measured restore: `runsc restore -detach` of IMAGE_DIR with BUNDLE, then
# the marker line (so Ready = spawn to restore returned), then the restored
# sandbox is killed and deleted (so Completion includes the teardown). With
# CGROUP_DIR (a cgroup v1 folder, e.g. a blkio throttle), this shell joins it
# first (or the folder named in the file CGROUP_DIR, as throttled-disk.sh
# writes it), so runsc and the sandbox it starts read the image under its limits.
# The restored app's output goes to a file, never to the launch's pipes.
# With GVISOR_RESTORE_EXEC set, after the marker that shell command runs inside
# the restored sandbox (runsc exec) and its output follows the marker, so a
# check that the app's state came back is part of the launch's stdout.
# With GVISOR_RESTORE_READY_CHECK set, the marker itself comes from inside the
# restored sandbox: runsc exec runs that shell command there and prints the
# marker when it succeeds, so Ready is the moment the restored sandbox runs a
# process that finds the app's state back, not the moment the CLI returned.
#
#   gvisor-restore.sh ROW_DIR BUNDLE IMAGE_DIR MARKER [CGROUP_DIR]
set -eu
[ $# -ge 4 ] || { echo "usage: gvisor-restore.sh ROW_DIR BUNDLE IMAGE_DIR MARKER [CGROUP_DIR]" >&2; exit 64; }
row=$1; bundle=$2; image=$3; marker=$4; cg=${5:-}
[ -z "$cg" ] || [ ! -f "$cg" ] || cg=$(cat "$cg")
here=$(cd "$(dirname "$0")" && pwd -P)
id="restore-$$"
trap '"$here/runsc.sh" "$row" kill "$id" KILL >/dev/null 2>&1 || true; "$here/runsc.sh" "$row" delete -force "$id" >/dev/null 2>&1 || true' EXIT
trap 'exit 143' INT TERM
[ -z "$cg" ] || echo $$ > "$cg/cgroup.procs"
"$here/runsc.sh" "$row" restore -detach --bundle "$bundle" --image-path "$image" "$id" </dev/null >"$row/$id.out" 2>&1 ||
  { cat "$row/$id.out" >&2; rm -f "$row/$id.out"; exit 71; }
if [ -n "${GVISOR_RESTORE_READY_CHECK:-}" ]; then
  "$here/runsc.sh" "$row" exec "$id" /bin/sh -c "$GVISOR_RESTORE_READY_CHECK && echo $marker" </dev/null
else
  echo "$marker"
fi
[ -z "${GVISOR_RESTORE_EXEC:-}" ] || "$here/runsc.sh" "$row" exec "$id" /bin/sh -c "$GVISOR_RESTORE_EXEC" </dev/null
rm -f "$row/$id.out"
