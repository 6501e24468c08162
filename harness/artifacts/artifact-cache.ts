// Effects: a build cache of image artifacts under <data>/artifacts/<recipe hash>/,
// so a forced re-pin does not rebuild, and hard links (or copies) from it into
// a stage's outputs.
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function cacheDirFor(dataDir: string, hash: string): string {
  return join(dataDir, 'artifacts', hash);
}

export function readCacheMeta<T>(dir: string): T | null {
  const f = join(dir, 'meta.json');
  if (!existsSync(f)) return null;
  try {
    return JSON.parse(readFileSync(f, 'utf8')) as T;
  } catch {
    return null;
  }
}

/** Builds into a temporary folder and renames it into place; meta.json marks it complete. */
export async function fillCache<T>(dir: string, build: (tmpDir: string) => Promise<T>): Promise<T> {
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    const meta = await build(tmp);
    writeFileSync(join(tmp, 'meta.json'), JSON.stringify(meta, null, 2) + '\n');
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
    return meta;
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

/** Hard-links (or copies, across file systems) a file or a folder tree. */
export function linkTree(from: string, to: string): void {
  const entries = readdirSync(from, { withFileTypes: true });
  mkdirSync(to, { recursive: true });
  for (const e of entries) {
    const a = join(from, e.name);
    const b = join(to, e.name);
    if (e.isDirectory()) linkTree(a, b);
    else linkFile(a, b);
  }
}

export function linkFile(from: string, to: string): void {
  rmSync(to, { force: true });
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}
