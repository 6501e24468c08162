#!/bin/sh
# The gvisor-full path's launcher: the oci-full path's complete pull and
# unpack (skopeo + umoci, as oci-full-launch.sh), started by runsc
# (gvisor-run.sh) instead of crun.
#
#   gvisor-full-launch.sh cold|warm PAIR_DIR WORKSPACE IMAGE_REF -- CMD [ARG...]
set -eu
here=$(cd "$(dirname "$0")" && pwd -P)
BENCHGRAPH_RUN_SCRIPT=gvisor-run.sh exec "$here/oci-full-launch.sh" "$@"
