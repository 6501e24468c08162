// A full file system under the data folder is the user's to fix, not a bug:
// turn any "no space left on device" (Node's ENOSPC, or DuckDB's message)
// into one line naming the folder and its free space. The store never
// renames a half-written stage into place, so nothing frozen is damaged and
// the next run resumes where this one stopped.
import { statfsSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { CheckFailed } from '../errors.js';

const NO_SPACE = /ENOSPC|No space left on device/;

export function isNoSpace(e: unknown): boolean {
  for (let x = e as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; x && depth < 5; x = x.cause as typeof x, depth++) {
    if (x.code === 'ENOSPC' || (typeof x.message === 'string' && NO_SPACE.test(x.message))) return true;
  }
  return false;
}

/** The path the failed write was for, when the error names one. */
function failedPath(e: unknown): string | null {
  const x = e as { path?: unknown; message?: unknown };
  if (typeof x.path === 'string') return x.path;
  const m = typeof x.message === 'string' ? /"(\/[^"]+)"|'(\/[^']+)'/.exec(x.message) : null;
  return m ? (m[1] ?? m[2]!) : null;
}

/** Free bytes (for an unprivileged writer) and size of the file system holding `dir`. */
export function freeSpace(dir: string): { freeBytes: number; totalBytes: number } {
  const s = statfsSync(dir);
  return { freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize };
}

/** A one-line failure for a full disk, or null when `e` is something else. */
export function diskFullFailure(e: unknown, dataDir: string): CheckFailed | null {
  if (!isNoSpace(e)) return null;
  const path = failedPath(e);
  const data = resolve(dataDir);
  // Name the data folder, unless the write that failed was somewhere else.
  const folder = path && relative(data, resolve(path)).startsWith('..') ? dirname(resolve(path)) : data;
  let space = '';
  try {
    const { freeBytes, totalBytes } = freeSpace(folder);
    space = `: ${freeBytes} bytes free of ${totalBytes}`;
  } catch {
    // the folder is gone: name it without figures
  }
  return new CheckFailed(
    `no space left on the file system of ${folder === data ? 'the data folder ' : ''}${folder}${space}; nothing frozen was changed (free some space, or use --data on a larger file system, and run again: it resumes)`,
  );
}
