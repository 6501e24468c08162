// Output digest of a folder: a Merkle digest over its files, sorted by
// relative path. Each leaf is sha256(path NUL sha256(content)); file modes are not hashed (a symlink's content is `symlink:TARGET`).
import { readdirSync, lstatSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { sha256File, sha256Hex } from './sha256.js';

export interface FileDigest {
  path: string;
  sha256: string;
  bytes: number;
}

/** Every regular file (and symlink) below `dir`, sorted by path, with its sha256. */
export async function listFileDigests(dir: string): Promise<FileDigest[]> {
  const files: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(dir, r));
      if (st.isDirectory()) walk(r);
      else files.push(r);
    }
  };
  walk('');
  const out: FileDigest[] = [];
  for (const f of files.sort()) {
    const abs = join(dir, f);
    const st = lstatSync(abs);
    if (st.isSymbolicLink()) {
      out.push({ path: f, sha256: sha256Hex('symlink:' + readlinkSync(abs)), bytes: 0 });
    } else {
      out.push({ path: f, sha256: await sha256File(abs), bytes: st.size });
    }
  }
  return out;
}

/** Merkle root over file digests (pure). */
export function merkleRoot(files: readonly FileDigest[]): string {
  const leaves = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map((f) => sha256Hex(`${f.path}\0${f.sha256}`));
  if (leaves.length === 0) return sha256Hex('empty');
  let level = leaves;
  while (level.length > 1) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 2) {
      next.push(i + 1 < level.length ? sha256Hex(level[i]! + level[i + 1]!) : level[i]!);
    }
    level = next;
  }
  return level[0]!;
}

export async function folderDigest(dir: string): Promise<{ digest: string; files: FileDigest[] }> {
  const files = await listFileDigests(dir);
  return { digest: merkleRoot(files), files };
}
