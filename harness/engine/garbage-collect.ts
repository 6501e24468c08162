// `pipeline gc`: remove what no lock file needs. Lock files are looked for
// next to the pipeline file and in its pipelines/ folder. Goes:
//  - frozen stage outputs (stages/<kind>/<key>) no lock references;
//  - scratch folders (work/<kind>/<key>) of keys no lock references: an
//    interrupted run's resume point goes with them;
//  - build-cache entries (artifacts/<recipe hash>) no kept frozen pin stage
//    records in its pins.json, and half-built ones (<hash>.tmp-<pid>) whose
//    builder is gone;
//  - temporary folders (tmp/) and service run folders (run/services-<pid>)
//    of runs whose process is gone.
// The plan is computed first (what, where, how many bytes); --dry-run stops there.
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Store, tempOwnerPid } from './store.js';
import type { LockFile } from './lock-file.js';
import { isAlive } from '../process/pid.js';
import { mountsUnder } from '../process/mount-table.js';
import { removeScratch } from '../process/safe-remove.js';

export type GcWhat = 'stage' | 'work' | 'artifact' | 'temp' | 'run';

export interface GcItem {
  what: GcWhat;
  /** Absolute path of the folder that goes. */
  path: string;
  bytes: number;
  /** Mounts below it that kept it from being removed (never walked into). */
  blockedBy?: string[];
}

export interface GcResult {
  /** Frozen stage outputs removed (or that would be), as kind/key. */
  removed: string[];
  /** Frozen stage outputs kept. */
  kept: number;
  items: GcItem[];
  bytes: number;
  dryRun: boolean;
}

export function garbageCollect(pipelineFile: string, dataDir: string, options: { dryRun?: boolean } = {}): GcResult {
  const referenced = referencedStages(pipelineFile);
  const store = new Store(dataDir);
  const items: GcItem[] = [];
  const removed: string[] = [];
  const keptPins: string[] = [];
  let kept = 0;
  const seen = new Set<string>(); // dev:ino, so hard links are counted once

  for (const [kind, key] of store.listFrozen()) {
    if (referenced.has(`${kind}/${key}`)) {
      kept++;
      if (kind === 'pin') keptPins.push(store.outputsDir(kind, key));
      continue;
    }
    removed.push(`${kind}/${key}`);
    items.push({ what: 'stage', path: store.stageDir(kind, key), bytes: 0 });
  }

  for (const [kind, key] of listTwoLevels(join(dataDir, 'work'))) {
    if (!referenced.has(`${kind}/${key}`)) items.push({ what: 'work', path: store.workDir(kind, key), bytes: 0 });
  }

  const pinned = pinnedRecipeHashes(keptPins);
  const artifacts = join(dataDir, 'artifacts');
  for (const name of listDir(artifacts)) {
    const building = /\.tmp-(\d+)$/.exec(name);
    const gone = building ? !isAlive(Number(building[1])) : !pinned.has(name);
    if (gone) items.push({ what: 'artifact', path: join(artifacts, name), bytes: 0 });
  }

  const tmp = join(dataDir, 'tmp');
  for (const name of listDir(tmp)) {
    if (ownerGone(tempOwnerPid(name))) items.push({ what: 'temp', path: join(tmp, name), bytes: 0 });
  }
  const run = join(dataDir, 'run');
  for (const name of listDir(run)) {
    const m = /^services-(\d+)$/.exec(name);
    if (m && ownerGone(Number(m[1]))) items.push({ what: 'run', path: join(run, name), bytes: 0 });
  }

  for (const item of items) {
    const mounts = mountsUnder(item.path);
    if (mounts.length) item.blockedBy = mounts;
    else item.bytes = treeBytes(item.path, seen);
  }
  if (!options.dryRun) for (const item of items) if (!item.blockedBy) removeScratch(item.path);
  const blockedStages = new Set(items.filter((i) => i.what === 'stage' && i.blockedBy).map((i) => i.path));
  return {
    removed: removed.filter((k) => !blockedStages.has(join(dataDir, 'stages', k))),
    kept: kept + blockedStages.size,
    items,
    bytes: items.reduce((s, i) => s + i.bytes, 0),
    dryRun: options.dryRun === true,
  };
}

function ownerGone(pid: number | null): boolean {
  return pid === null || (pid !== process.pid && !isAlive(pid));
}

function referencedStages(pipelineFile: string): Set<string> {
  const dirs = [dirname(pipelineFile), join(dirname(pipelineFile), 'pipelines')];
  const referenced = new Set<string>();
  for (const d of dirs) {
    for (const f of listDir(d).filter((f) => f.endsWith('.lock'))) {
      try {
        const lock = JSON.parse(readFileSync(join(d, f), 'utf8')) as LockFile;
        for (const e of Object.values(lock.stages ?? {})) referenced.add(`${e.uses}/${e.key}`);
      } catch {
        // not one of ours
      }
    }
  }
  return referenced;
}

/** Recipe hashes of the build-cache entries the given pin outputs were made from. */
function pinnedRecipeHashes(pinOutputs: readonly string[]): Set<string> {
  const hashes = new Set<string>();
  for (const dir of pinOutputs) {
    try {
      const pins = JSON.parse(readFileSync(join(dir, 'pins.json'), 'utf8')) as { images?: Record<string, { recipeHash?: string }> };
      for (const image of Object.values(pins.images ?? {})) if (image.recipeHash) hashes.add(image.recipeHash);
    } catch {
      // a pin output without pins.json references nothing
    }
  }
  return hashes;
}

function listDir(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

function listTwoLevels(base: string): [string, string][] {
  const out: [string, string][] = [];
  for (const a of listDir(base)) {
    if (!lstatSync(join(base, a)).isDirectory()) continue;
    for (const b of listDir(join(base, a))) out.push([a, b]);
  }
  return out;
}

/** Apparent size of the regular files below `path`, each inode counted once. */
function treeBytes(path: string, seen: Set<string>): number {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return 0;
  }
  if (st.isDirectory()) {
    let n = 0;
    for (const name of readdirSync(path)) n += treeBytes(join(path, name), seen);
    return n;
  }
  const id = `${st.dev}:${st.ino}`;
  if (seen.has(id)) return 0;
  seen.add(id);
  return st.isFile() ? st.size : 0;
}
