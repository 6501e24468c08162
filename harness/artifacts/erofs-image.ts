// Effects: builds an uncompressed erofs image from a root file system tar with
// mkfs.erofs, reproducibly: a fixed UUID, and SOURCE_DATE_EPOCH set to the
// newest mtime in the tree so that --preserve-mtime keeps every file's own
// mtime (Python compares them with its .pyc files) and the build time is fixed.
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runUntimed } from '../process/untimed-command.js';

export const EROFS_UUID = '00000000-0000-0000-0000-000000000000';

function newestMtimeS(dir: string): number {
  let newest = 0;
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const st = lstatSync(p);
      newest = Math.max(newest, Math.floor(st.mtimeMs / 1000));
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return Math.max(newest, Math.floor(lstatSync(dir).mtimeMs / 1000));
}

/** Extracts the tar (owners and modes kept: needs root) and runs mkfs.erofs. */
export async function buildErofsImage(tarFile: string, outFile: string, signal?: AbortSignal): Promise<void> {
  mkdirSync(dirname(outFile), { recursive: true });
  const root = mkdtempSync(join(dirname(outFile), '.erofs-root-'));
  try {
    await runUntimed('tar', ['--numeric-owner', '-xpf', tarFile, '-C', root], { signal });
    const epoch = newestMtimeS(root);
    rmSync(outFile, { force: true });
    await runUntimed('mkfs.erofs', ['--quiet', '--preserve-mtime', `-U${EROFS_UUID}`, outFile, root], {
      env: { ...process.env, SOURCE_DATE_EPOCH: String(epoch) },
      signal,
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
