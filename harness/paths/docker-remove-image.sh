#!/bin/sh
# before_cold hook of the docker path: removes only the benchmark image (every
# local image whose repo digest is DIGEST, with its layers) from the private
# engine, then checks that none is left. Idempotent.
#
#   docker-remove-image.sh SOCKET DIGEST      (DIGEST = sha256:...)
set -eu
[ $# -eq 2 ] || { echo "usage: docker-remove-image.sh SOCKET sha256:DIGEST" >&2; exit 64; }
docker=/usr/bin/docker; [ -x "$docker" ] || docker=docker
sock=$1; digest=$2
ids() {
  "$docker" -H "unix://$sock" image ls --digests --no-trunc --format '{{.ID}} {{.Digest}}' | awk -v d="$digest" '$2 == d { print $1 }' | sort -u
}
for id in $(ids); do "$docker" -H "unix://$sock" image rm -f "$id" >/dev/null; done
left=$(ids)
[ -z "$left" ] || { echo "docker-remove-image: image $digest still present: $left" >&2; exit 1; }
