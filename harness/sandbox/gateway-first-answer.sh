#!/bin/sh
# Time to the first answer of a starting server, as a gateway polls it: a
# crun container in the row's private network namespace NAME (loopback only;
# made ahead with netns.sh) starts SERVER_CMD, which listens on
# 127.0.0.1:PORT inside that namespace; the client polls
# http://127.0.0.1:PORT/ from inside the same namespace (ip netns exec, curl)
#   fixed50:    every 50 ms,
#   backoff100: after 100 ms, then 200, 400, ... (exponential back-off),
# and prints MARKER on the first HTTP answer (Ready) and polls=N; then the
# container is killed and deleted. Nothing leaves the namespace's loopback.
#
#   gateway-first-answer.sh ROW_DIR ROOTFS NAME PORT fixed50|backoff100 MARKER -- SERVER_CMD [ARG...]
set -eu
[ $# -ge 8 ] && [ "$7" = "--" ] || { echo "usage: gateway-first-answer.sh ROW_DIR ROOTFS NAME PORT fixed50|backoff100 MARKER -- SERVER_CMD [ARG...]" >&2; exit 64; }
row=$(cd "$1" && pwd -P); rootfs=$2; name=$3; port=$4; mode=$5; marker=$6; shift 7
here=$(cd "$(dirname "$0")" && pwd -P)
ns="benchgraph-$(basename "$row")-$name"
id="gw$$"
trap 'crun --root "$row/crun-state" kill "$id" KILL >/dev/null 2>&1 || true; crun --root "$row/crun-state" delete -f "$id" >/dev/null 2>&1 || true' EXIT
trap 'exit 143' INT TERM
case "$mode" in fixed50) wait_s=0.05 ;; backoff100) wait_s=0.1 ;; *) echo "gateway-first-answer: mode must be fixed50 or backoff100, not $mode" >&2; exit 64 ;; esac
"$here/crun-in-netns.sh" "$row" "$rootfs" "$name" detach "$id" -- "$@" </dev/null >"$row/$id.out" 2>&1 ||
  { cat "$row/$id.out" >&2; exit 71; }
polls=0
while :; do
  polls=$((polls + 1))
  if ip netns exec "$ns" curl -s -o /dev/null -m 1 "http://127.0.0.1:$port/"; then break; fi
  [ $polls -lt 400 ] || { echo "gateway-first-answer: no answer after $polls polls" >&2; exit 72; }
  sleep "$wait_s"
  [ "$mode" = fixed50 ] || wait_s=$(awk -v w="$wait_s" 'BEGIN { printf "%.3f", w * 2 }')
done
echo "$marker"
echo "polls=$polls"
rm -f "$row/$id.out"
