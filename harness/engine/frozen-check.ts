// Before a frozen stage output is reused, a cheap check that it is still what
// its manifest says (the full re-hash is `pipeline audit`):
//  - the manifest exists when the stage folder does, parses, and its output
//    digest is the Merkle root of its own file list (a flipped byte in a
//    recorded digest shows);
//  - every output file it lists exists with the recorded size (a truncated
//    or removed file shows);
//  - a file modified after the freeze (mtime newer than the manifest's; frozen
//    files are never written again) is re-hashed (a flipped byte shows).
// Bit rot that keeps size and mtime is left to `pipeline audit`.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { merkleRoot } from '../digest/merkle.js';
import { CheckFailed } from '../errors.js';
import type { StageManifest, Store } from './store.js';

export type FrozenState = { state: 'absent' } | { state: 'intact'; manifest: StageManifest } | { state: 'corrupt'; file: string; problem: string };

export async function inspectFrozen(store: Store, kind: string, key: string): Promise<FrozenState> {
  return inspectFrozenSync(store, kind, key);
}

/** inspectFrozen without awaiting: the plan reads the store through it (a modified file is re-hashed synchronously; this is rare). */
export function inspectFrozenSync(store: Store, kind: string, key: string): FrozenState {
  const dir = store.stageDir(kind, key);
  if (!existsSync(dir)) return { state: 'absent' };
  const manifestFile = join(dir, 'manifest.json');
  if (!existsSync(manifestFile)) return { state: 'corrupt', file: manifestFile, problem: 'is missing (the stage folder is there without it)' };
  let manifest: StageManifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as StageManifest;
  } catch (e) {
    return { state: 'corrupt', file: manifestFile, problem: `does not parse (${(e as Error).message})` };
  }
  if (!Array.isArray(manifest.files) || merkleRoot(manifest.files) !== manifest.outputDigest) {
    return { state: 'corrupt', file: manifestFile, problem: 'does not match its own output digest' };
  }
  const frozenAtMs = statSync(manifestFile).mtimeMs;
  const outputs = store.outputsDir(kind, key);
  for (const f of manifest.files) {
    const file = join(outputs, f.path);
    let st;
    try {
      st = lstatSync(file);
    } catch {
      return { state: 'corrupt', file, problem: 'is missing' };
    }
    if (st.isSymbolicLink()) continue; // recorded by its target, size 0
    if (st.size !== f.bytes) return { state: 'corrupt', file, problem: `has ${st.size} bytes, the manifest says ${f.bytes}` };
    if (st.mtimeMs > frozenAtMs && createHash('sha256').update(readFileSync(file)).digest('hex') !== f.sha256) {
      return { state: 'corrupt', file, problem: 'was modified after it was frozen (its sha256 differs from the manifest)' };
    }
  }
  return { state: 'intact', manifest };
}

/**
 * The manifest of a frozen stage that may be reused, or null when there is
 * none (or it is forced, so it will be rebuilt). A corrupted one is refused
 * unless forced, naming the stage, the file and the remedy.
 */
export async function reusableManifest(store: Store, id: string, kind: string, key: string, forced: boolean): Promise<StageManifest | null> {
  const s = await inspectFrozen(store, kind, key);
  if (s.state === 'absent') return null;
  if (s.state === 'intact') return s.manifest;
  if (forced) return null;
  throw new CheckFailed(
    `stage '${id}': frozen output ${relative(process.cwd(), s.file) || s.file} ${s.problem}; refusing to reuse it (rebuild it with --force ${id})`,
  );
}
