// Removes a scratch folder only when nothing is mounted below it: a recursive
// delete must never walk into a mount a path left behind.
import { existsSync, rmSync } from 'node:fs';
import { mountsUnder } from './mount-table.js';

/** Returns the mounts that blocked removal (empty when removed). */
export function removeScratch(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const mounts = mountsUnder(dir);
  if (mounts.length) return mounts;
  rmSync(dir, { recursive: true, force: true });
  return [];
}
