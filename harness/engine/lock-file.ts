// pipeline.lock: next to the pipeline file (X.yaml -> X.lock), the keys and
// output digests of the last successful run, one stage per line, sorted, so
// it diffs well when committed.
//
// A data folder keeps its own record of the same lock (issue 47 item 3):
// <data>/locks/<X>-<hash of the pipeline file's path>.lock, written by every
// run and pull into that folder. audit, status, show, push and a run's plan
// read the folder's record, so a run of the same file in a second folder
// never makes the first one fail its audit; a folder made before records were
// kept has none, and they read the lock beside the pipeline file.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { sha256Hex } from '../digest/sha256.js';

export interface LockEntry {
  uses: string;
  key: string;
  outputDigest: string;
}

export interface LockFile {
  lockVersion: 1;
  pipeline: string;
  /** The --set values of the run that wrote it, as given (absent when there were none). */
  set?: string[];
  stages: Record<string, LockEntry>;
}

/** Where a lock is written and what it records beside the stages. */
export interface LockWrite {
  /** The data folder whose own record is written too. */
  dataDir?: string;
  /** Write the lock next to the pipeline file (default); false writes only the folder's record (a pull that does not publish). */
  beside?: boolean;
  /** The run's --set values. */
  sets?: readonly string[];
}

export function lockPathFor(pipelineFile: string): string {
  return join(dirname(pipelineFile), basename(pipelineFile, extname(pipelineFile)) + '.lock');
}

/** The data folder's own record of the pipeline's lock. */
export function folderLockPath(pipelineFile: string, dataDir: string): string {
  const name = basename(pipelineFile, extname(pipelineFile));
  return join(dataDir, 'locks', `${name}-${sha256Hex(resolve(pipelineFile)).slice(0, 12)}.lock`);
}

/** The lock file a data folder's commands read: the folder's own record when it has one, else the lock beside the pipeline file. */
export function lockFileOf(pipelineFile: string, dataDir?: string): string {
  const own = dataDir === undefined ? null : folderLockPath(pipelineFile, dataDir);
  return own && existsSync(own) ? own : lockPathFor(pipelineFile);
}

/**
 * The lock of a pipeline as a data folder knows it (lockFileOf), or the lock
 * next to the pipeline file without a folder; null when there is none. A lock
 * that is not one is a user error, never "no lock".
 */
export function readLock(pipelineFile: string, dataDir?: string): LockFile | null {
  return readLockText(lockFileOf(pipelineFile, dataDir))?.lock ?? null;
}

/** A lock file as parsed and as written, or null when there is none. */
function readLockText(file: string): { lock: LockFile; text: string } | null {
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
  const set = lock.set?.length ? `  "set": ${JSON.stringify(lock.set)},\n` : '';
  return `{\n  "lockVersion": 1,\n  "pipeline": ${JSON.stringify(lock.pipeline)},\n${set}  "stages": {\n${lines.join('\n')}\n  }\n}\n`;
}

/**
 * Records this run's stages over the previous lock; entries of stage ids no
 * longer in the pipeline are dropped. With a data folder, its own record too
 * (over its own previous record); `beside: false` writes only that record,
 * leaving the lock next to the pipeline file as it is (a pull that does not publish).
 */
export function writeLock(pipelineFile: string, stages: Record<string, LockEntry>, stageIds: readonly string[], to: LockWrite = {}): void {
  const files = [...(to.beside === false ? [] : [lockPathFor(pipelineFile)]), ...(to.dataDir === undefined ? [] : [folderLockPath(pipelineFile, to.dataDir)])];
  for (const file of files) {
    const text = changedLockAt(file, pipelineFile, stages, stageIds, to.sets ?? []);
    if (text === null) continue; // the same lock (a no-op rerun): left as it is, its mtime too
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file + '.tmp', text);
    renameSync(file + '.tmp', file); // atomic: a reader never sees half a lock file
  }
}

/** Whether writeLock would write anything: the lock next to the pipeline file, or the data folder's record, does not already say it. */
export function lockWouldChange(pipelineFile: string, stages: Record<string, LockEntry>, stageIds: readonly string[], to: LockWrite = {}): boolean {
  const files = [lockPathFor(pipelineFile), ...(to.dataDir === undefined ? [] : [folderLockPath(pipelineFile, to.dataDir)])];
  return files.some((file) => changedLockAt(file, pipelineFile, stages, stageIds, to.sets ?? []) !== null);
}

function changedLockAt(
  file: string,
  pipelineFile: string,
  stages: Record<string, LockEntry>,
  stageIds: readonly string[],
  sets: readonly string[],
): string | null {
  const old = readLockText(file);
  const ids = new Set(stageIds);
  const kept = Object.fromEntries(Object.entries(old?.lock.stages ?? {}).filter(([id]) => ids.has(id)));
  const text = renderLock({ lockVersion: 1, pipeline: basename(pipelineFile), ...(sets.length ? { set: [...sets] } : {}), stages: { ...kept, ...stages } });
  return old?.text === text ? null : text;
}
