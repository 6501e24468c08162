// pipeline.lock: next to the pipeline file (X.yaml -> X.lock), the keys and
// output digests of the last successful run, one stage per line, sorted, so
// it diffs well when committed.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { UserError } from '../errors.js';

export interface LockEntry {
  uses: string;
  key: string;
  outputDigest: string;
}

export interface LockFile {
  lockVersion: 1;
  pipeline: string;
  stages: Record<string, LockEntry>;
}

export function lockPathFor(pipelineFile: string): string {
  return join(dirname(pipelineFile), basename(pipelineFile, extname(pipelineFile)) + '.lock');
}

/** The lock next to the pipeline file; null when there is none. A lock that is not one is a user error, never "no lock". */
export function readLock(pipelineFile: string): LockFile | null {
  return readLockText(pipelineFile)?.lock ?? null;
}

/** The lock file as parsed and as written, or null when there is none. */
function readLockText(pipelineFile: string): { lock: LockFile; text: string } | null {
  const file = lockPathFor(pipelineFile);
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new UserError(
      `not valid JSON: ${(e as Error).message}`,
      { file },
      `restore it from version control (git checkout -- ${basename(file)}) or delete it; the next run writes a new one`,
    );
  }
  const lock = parsed as Partial<LockFile>;
  if (lock.lockVersion !== 1 || typeof lock.stages !== 'object' || lock.stages === null) {
    throw new UserError(
      'not a benchgraph lock file (lockVersion 1 with stages)',
      { file },
      `restore it from version control or delete it; the next run writes a new one`,
    );
  }
  return { lock: lock as LockFile, text };
}

/** Renders the lock file text (pure): one stage per line, ids sorted. */
export function renderLock(lock: LockFile): string {
  const ids = Object.keys(lock.stages).sort();
  const lines = ids.map((id, i) => `    ${JSON.stringify(id)}: ${JSON.stringify(lock.stages[id])}${i < ids.length - 1 ? ',' : ''}`);
  return `{\n  "lockVersion": 1,\n  "pipeline": ${JSON.stringify(lock.pipeline)},\n  "stages": {\n${lines.join('\n')}\n  }\n}\n`;
}

/** Records this run's stages over the previous lock; entries of stage ids no longer in the pipeline are dropped. */
export function writeLock(pipelineFile: string, stages: Record<string, LockEntry>, stageIds: readonly string[]): void {
  const text = changedLock(pipelineFile, stages, stageIds);
  if (text === null) return; // the same lock (a no-op rerun): left as it is, its mtime too
  const file = lockPathFor(pipelineFile);
  writeFileSync(file + '.tmp', text);
  renameSync(file + '.tmp', file); // atomic: a reader never sees half a lock file
}

/** The text writeLock would write, or null when the lock file already says it. */
export function changedLock(pipelineFile: string, stages: Record<string, LockEntry>, stageIds: readonly string[]): string | null {
  const old = readLockText(pipelineFile);
  const ids = new Set(stageIds);
  const kept = Object.fromEntries(Object.entries(old?.lock.stages ?? {}).filter(([id]) => ids.has(id)));
  const text = renderLock({ lockVersion: 1, pipeline: basename(pipelineFile), stages: { ...kept, ...stages } });
  return old?.text === text ? null : text;
}
