#!/bin/sh
# Compiles the launch helper (harness/launch/launcher.c) into
# harness/launch/build/launcher. Called by `npm run build` after tsc.
# There is deliberately no fallback: without the helper, launches would be
# timed by Node, which adds 5-6 ms to every launch.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cc_bin=${CC:-cc}
if ! command -v "$cc_bin" >/dev/null 2>&1; then
  echo "benchgraph: no C compiler ($cc_bin) found; the launch helper cannot be built. Install one (e.g. 'sudo apt-get install gcc') and run 'npm run build' again." >&2
  exit 1
fi
mkdir -p "$here/build"
"$cc_bin" -O2 -Wall -o "$here/build/launcher.tmp" "$here/launcher.c"
mv -f "$here/build/launcher.tmp" "$here/build/launcher"
# The host canary (canary.c), static so that none of its pieces runs the dynamic loader.
"$cc_bin" -O2 -Wall -static -o "$here/build/canary.tmp" "$here/canary.c"
mv -f "$here/build/canary.tmp" "$here/build/canary"
