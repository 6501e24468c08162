// Removes a scratch folder only when nothing is mounted below it: a recursive
// delete must never walk into a mount a path left behind.
import { readFileSync, rmSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';

export function mountsUnder(dir: string): string[] {
  let text = '';
  try {
    text = readFileSync('/proc/self/mounts', 'utf8');
  } catch {
    return [];
  }
  const root = resolve(dir) + '/';
  return text
    .split('\n')
    .map((l) => l.split(' ')[1])
    .filter((m): m is string => !!m)
    .map((m) => m.replace(/\\040/g, ' '))
    .filter((m) => m + '/' === root || m.startsWith(root));
}

/** Returns the mounts that blocked removal (empty when removed). */
export function removeScratch(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const mounts = mountsUnder(dir);
  if (mounts.length) return mounts;
  rmSync(dir, { recursive: true, force: true });
  return [];
}
