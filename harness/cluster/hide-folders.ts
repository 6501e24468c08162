// Pure: the command that starts a program in its own mount namespace with an
// empty tmpfs over each given folder, so that program and its children cannot
// see those folders. The namespace ends with its last process, so nothing is
// left in the host's mount table.

export function hideFoldersArgs(folders: string[], command: string, args: string[]): [string, string[]] {
  if (!folders.length) return [command, args];
  // sh -c SCRIPT sh N F1..FN COMMAND ARGS: mount a tmpfs over the N folders, then exec the command.
  const script =
    'n=$1; shift; while [ "$n" -gt 0 ]; do mount -t tmpfs -o size=1m,mode=0755 benchgraph-hidden "$1" || exit 1; shift; n=$((n-1)); done; exec "$@"';
  return ['unshare', ['--mount', '--propagation', 'private', '--', 'sh', '-c', script, 'sh', String(folders.length), ...folders, command, ...args]];
}
