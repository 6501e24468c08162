#!/bin/sh
# Starts an app in a gVisor sandbox inside a memory cgroup of its own (cgroup
# v1, benchgraph-<row folder>-NAME, recorded in ROW_DIR/cgroups.list for
# gvisor-sweep.sh), and waits for its ready line. The sandbox keeps running
# (ROW_DIR/NAME/id names it); its memory, the sentry's included, is charged to
# that cgroup, so a limit written there reclaims the sandbox's pages alone.
# Prints usage_mib= (the cgroup's memory once the app is ready).
#
#   gvisor-app-memcg.sh ROW_DIR NAME ROOTFS READY_LINE TIMEOUT_S -- CMD [ARG...]
set -eu
[ $# -ge 7 ] && [ "$6" = "--" ] || { echo "usage: gvisor-app-memcg.sh ROW_DIR NAME ROOTFS READY_LINE TIMEOUT_S -- CMD [ARG...]" >&2; exit 64; }
row=$(cd "$1" && pwd -P); name=$2; rootfs=$3; ready=$4; timeout_s=$5; shift 6
here=$(cd "$(dirname "$0")" && pwd -P)
mem=/sys/fs/cgroup/memory
[ -w "$mem/cgroup.procs" ] || { echo "gvisor-app-memcg: cgroup v1 memory is not mounted writable at $mem" >&2; exit 65; }
d="$row/$name"
rm -rf "$d"; mkdir -p "$d"
"$here/gvisor-bundle.sh" "$rootfs" "$d/bundle" -- "$@"
cg="$mem/benchgraph-$(basename "$row")-$name"
echo "$cg" >> "$row/cgroups.list"
mkdir -p "$cg"
echo "$cg" > "$d/cgroup"
id="app-$name-$$"
echo "$id" > "$d/id"
# the shell joins the cgroup, then becomes runsc: the sandbox and its gofer start in it
sh -c 'echo $$ > "$1/cgroup.procs" && exec "$2" "$3" run -detach --bundle "$4" "$5"' app "$cg" "$here/runsc.sh" "$row" "$d/bundle" "$id" </dev/null >"$d/app.out" 2>"$d/app.err"
i=0
until grep -qx "$ready" "$d/app.out" 2>/dev/null; do
  [ $i -lt $((timeout_s * 20)) ] || { echo "gvisor-app-memcg: $name did not print '$ready' within $timeout_s s (see $d/app.out, $d/app.err)" >&2; exit 70; }
  sleep 0.05; i=$((i + 1))
done
echo "usage_mib=$(( $(cat "$cg/memory.usage_in_bytes") / 1048576 ))"
