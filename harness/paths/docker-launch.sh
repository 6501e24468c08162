#!/bin/sh
# The docker path, with its cold time split in two: a cold launch runs
# `docker pull` of the pinned reference (from the registry mirror, through the
# byte-counting proxy), prints a phase mark on stderr, then `docker run --rm
# --network none` of the now local image; a warm launch is the `docker run`
# alone, as the image is present. The pull and the run are the same work as a
# `docker run` that pulls, plus one more start of the docker client.
# usage: docker-launch.sh cold|warm DOCKER SOCKET IMAGE_REF -- CMD [ARG...]
set -eu
[ $# -ge 5 ] && [ "$5" = "--" ] || { echo "usage: docker-launch.sh cold|warm DOCKER SOCKET IMAGE_REF -- CMD [ARG...]" >&2; exit 64; }
state=$1; docker=$2; socket=$3; ref=$4; shift 5
if [ "$state" = cold ]; then
  "$docker" -H "unix://$socket" pull --quiet "$ref" >/dev/null || { echo "docker-launch: pull of $ref failed" >&2; exit 71; }
  echo "BENCHGRAPH-PHASE pull-done" >&2
fi
exec "$docker" -H "unix://$socket" run --rm --network none "$ref" "$@"
