// Mount points at or under a folder, from /proc/self/mountinfo.
import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';

/** Pure: mount points in mountinfo text that are `dir` or below it. */
export function mountPointsUnder(mountinfo: string, dir: string): string[] {
  const root = resolve(dir);
  const out: string[] = [];
  for (const line of mountinfo.split('\n')) {
    const field = line.split(' ')[4];
    if (!field) continue;
    const point = field.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
    if (point === root || point.startsWith(root + '/')) out.push(point);
  }
  return out;
}

/** Mount points at or under `dir` (symlinks in `dir` resolved, as the kernel records real paths). */
export function mountsUnder(dir: string): string[] {
  let real = dir;
  try {
    real = realpathSync(dir);
  } catch {
    // a folder that does not exist has nothing mounted under it, unless a parent resolves
  }
  try {
    return mountPointsUnder(readFileSync('/proc/self/mountinfo', 'utf8'), real);
  } catch {
    return [];
  }
}
