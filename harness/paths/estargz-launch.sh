#!/bin/sh
# The estargz paths' launcher: on-demand reads of an eStargz image from the
# registry mirror through the stargz snapshotter's file system.
#
#   estargz-launch.sh cold|warm PAIR_DIR WORKSPACE IMAGE_REF -- CMD [ARG...]
#
# cold: starts estargz-mount (harness/paths/estargz/, built by setup.sh from
#   Debian's stargz-snapshotter sources) on IMAGE_REF with a fresh cache folder
#   under PAIR_DIR, and waits until every layer is mounted and checked (with
#   BENCHGRAPH_ESTARGZ_PREFETCH=1, a path's env, the check waits for the
#   prefetch of the files before the image's prefetch landmark, as the
#   snapshotter does before a container starts). estargz-mount runs in its own
#   session, so it outlives the cold launch's process group (which the launch
#   helper kills when the launch completes); its pid is in
#   PAIR_DIR/estargz/estargz-mount.pid. An image that is not eStargz is not
#   pulled whole instead: the launch fails, naming it (a snapshotter's silent
#   fallback to a full pull is what this path must never measure).
# warm: reuses the pair's mounts (and the chunks its cold launch fetched).
# Both: a fresh overlay upper layer in WORKSPACE and `crun run` (oci-run.sh),
# as the lazy path: only the image reader differs.
# On a failure while mounting, everything mounted so far is undone. The pair's
# mounts are undone by the after_pair hook (cleanup-pair.sh PAIR_DIR --remove).
set -eu
[ $# -ge 5 ] && [ "$5" = "--" ] || { echo "usage: estargz-launch.sh cold|warm PAIR_DIR WORKSPACE IMAGE_REF -- CMD [ARG...]" >&2; exit 64; }
state=$1; pair=$2; ws=$3; ref=$4; shift 5
here=$(cd "$(dirname "$0")" && pwd -P)
helper="$here/estargz/build/estargz-mount"
[ -x "$helper" ] || { echo "estargz-launch: $helper is missing; run ./setup.sh (it builds it from Debian's stargz-snapshotter sources)" >&2; exit 69; }
mkdir -p "$pair"
pair=$(cd "$pair" && pwd -P)
d="$pair/estargz"

if [ "$state" = cold ]; then
  "$here/cleanup-pair.sh" "$pair" --remove >&2 || { echo "estargz-launch: could not clear $d" >&2; exit 70; }
  case ${BENCHGRAPH_ESTARGZ_PREFETCH:-0} in 1) prefetch=-prefetch ;; 0) prefetch= ;; *) echo "estargz-launch: BENCHGRAPH_ESTARGZ_PREFETCH must be 0 or 1, not $BENCHGRAPH_ESTARGZ_PREFETCH" >&2; exit 64 ;; esac
  mkdir -p "$d/cache" "$d/layers"
  trap '"$here/cleanup-pair.sh" "$pair" >&2' EXIT
  trap 'exit 143' INT TERM
  echo "$d/layers" > "$d/estargz-mount.mountpoint"
  rm -f "$d/estargz-mount.pid" "$d/ready"
  # In a session of its own (setsid -f forks, so it is not crun's child either); the forked
  # shell writes its own pid (estargz-mount's, after exec) for cleanup-pair.sh.
  setsid -f /bin/sh -c 'echo $$ > "$1.tmp" && mv "$1.tmp" "$1" && shift && exec "$@"' estargz-mount "$d/estargz-mount.pid" \
    "$helper" -ref "$ref" -root "$d/cache" -mnt "$d/layers" -ready "$d/ready" $prefetch \
    </dev/null >/dev/null 2>"$d/estargz-mount.log" ||
    { echo "estargz-launch: could not start estargz-mount" >&2; exit 71; }
  i=0
  until [ -s "$d/ready" ]; do
    pid=$(cat "$d/estargz-mount.pid" 2>/dev/null || true)
    if [ $i -ge 24000 ]; then
      echo "estargz-launch: $ref was not mounted within 2 minutes (see $d/estargz-mount.log)" >&2; exit 72
    fi
    if [ -n "$pid" ] && { [ ! -d "/proc/$pid" ] || grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; }; then
      why=$(tail -n 1 "$d/estargz-mount.log" 2>/dev/null || true)
      # its end is this launch's failure, reported here: not a server that died under the pair
      rm -f "$d/estargz-mount.pid"
      echo "estargz-launch: not mounted lazily: ${why:-estargz-mount gave no reason (see $d/estargz-mount.log)} (image $ref)" >&2; exit 72
    fi
    sleep 0.005; i=$((i + 1))
  done
  layers=$(cat "$d/ready")
  if [ "$(echo "$layers" | wc -l)" -eq 1 ]; then
    lower=$layers
  else
    # several layers: one read-only overlay of them, top layer first
    mkdir -p "$d/lower"
    mount -t overlay -o "ro,lowerdir=$(echo "$layers" | paste -sd:)" overlay "$d/lower" || { echo "estargz-launch: could not stack the layers of $ref" >&2; exit 72; }
    lower="$d/lower"
  fi
  echo "$lower" > "$d/lower.path"
  trap - EXIT INT TERM
elif [ "$state" = warm ]; then
  [ -s "$d/lower.path" ] && mountpoint -q "$(cat "$d/lower.path")" ||
    { echo "estargz-launch: warm launch without the pair's mounts ($d); did the cold launch fail?" >&2; exit 73; }
  lower=$(cat "$d/lower.path")
  pid=$(cat "$d/estargz-mount.pid" 2>/dev/null || true)
  { [ -n "$pid" ] && [ -d "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; } ||
    { echo "estargz-launch: estargz-mount (pid ${pid:-unknown}) serving this pair died; warm launch not started" >&2; exit 74; }
else
  echo "estargz-launch: state must be cold or warm, not $state" >&2; exit 64
fi

exec "$here/${BENCHGRAPH_RUN_SCRIPT:-oci-run.sh}" "$lower" "$ws" -- "$@"
