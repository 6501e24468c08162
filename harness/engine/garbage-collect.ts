// `pipeline gc`: remove frozen outputs that no lock file references. Lock
// files are looked for next to the pipeline file and in its pipelines/ folder.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Store } from './store.js';
import type { LockFile } from './lock-file.js';
import { readFileSync } from 'node:fs';

export function garbageCollect(pipelineFile: string, dataDir: string): { removed: string[]; kept: number } {
  const dirs = [dirname(pipelineFile), join(dirname(pipelineFile), 'pipelines')];
  const referenced = new Set<string>();
  for (const d of dirs) {
    if (!existsSync(d)) continue;
    for (const f of readdirSync(d).filter((f) => f.endsWith('.lock'))) {
      try {
        const lock = JSON.parse(readFileSync(join(d, f), 'utf8')) as LockFile;
        for (const e of Object.values(lock.stages ?? {})) referenced.add(`${e.uses}/${e.key}`);
      } catch {
        // not one of ours
      }
    }
  }
  const store = new Store(dataDir);
  const removed: string[] = [];
  let kept = 0;
  for (const [kind, key] of store.listFrozen()) {
    if (referenced.has(`${kind}/${key}`)) {
      kept++;
      continue;
    }
    rmSync(store.stageDir(kind, key), { recursive: true, force: true });
    removed.push(`${kind}/${key}`);
  }
  store.sweepTemp();
  return { removed, kept };
}
