// Whether a folder already holds exactly the files of another: the same
// names (folders and regular files only), modes, sizes and bytes. Lets a
// no-op rerun leave a published report folder as it is instead of deleting
// and copying it again (1.3 MB of index.html and plots for the smoke
// pipeline); any difference, or anything other than a plain file or folder,
// answers false and the caller copies.
//
// Bytes are compared only where the modification times differ: a file of the
// same size and mode whose mtime is the source's (within the millisecond a
// timestamp-keeping copy rounds to) is taken as the copy it is, as rsync's
// quick check takes it. The publisher copies with the frozen files'
// timestamps, and frozen files are never written again, so an edit to a
// published file shows in its mtime.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** True when `target` holds exactly what `source` holds; top-level names in `ignoreInTarget` are not compared. */
export function sameFiles(source: string, target: string, ignoreInTarget: readonly string[] = []): boolean {
  try {
    return sameFolder(source, target, new Set(ignoreInTarget));
  } catch {
    return false; // a missing or unreadable entry: not the same
  }
}

function sameFolder(source: string, target: string, ignore: ReadonlySet<string>): boolean {
  const names = readdirSync(source).sort();
  const theirs = readdirSync(target)
    .filter((n) => !ignore.has(n))
    .sort();
  if (names.length !== theirs.length || names.some((n, i) => n !== theirs[i])) return false;
  for (const name of names) {
    const a = lstatSync(join(source, name));
    const b = lstatSync(join(target, name));
    if (a.isDirectory() && b.isDirectory()) {
      if (!sameFolder(join(source, name), join(target, name), new Set())) return false;
    } else if (!a.isFile() || !b.isFile() || a.size !== b.size || a.mode !== b.mode) return false;
    else if (Math.abs(a.mtimeMs - b.mtimeMs) >= 1 && !readFileSync(join(source, name)).equals(readFileSync(join(target, name)))) return false;
  }
  return true;
}
