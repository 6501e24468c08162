#!/bin/sh
# The gvisor-lazy path's launcher: the lazy path's on-demand erofs image over
# HTTP (rclone + kernel erofs, the same mounts, cold and warm, as
# lazy-launch.sh), started by runsc (gvisor-run.sh) instead of crun, so a
# comparison with gvisor-full isolates on-demand reading with a sandbox on
# both sides, and one with lazy isolates the runtime.
#
#   gvisor-lazy-launch.sh cold|warm PAIR_DIR WORKSPACE BASE_URL EROFS_FILE -- CMD [ARG...]
set -eu
here=$(cd "$(dirname "$0")" && pwd -P)
BENCHGRAPH_RUN_SCRIPT=gvisor-run.sh exec "$here/lazy-launch.sh" "$@"
