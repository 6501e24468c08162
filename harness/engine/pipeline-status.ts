// `pipeline status`: which stages are fresh (a frozen output exists for their
// current key) and, for the stale ones, why, in words: by comparing their
// current key inputs with those of the run recorded in the lock file.
import { dirname } from 'node:path';
import type { PipelineConfig } from '../config/pipeline-config.js';
import { explainChange } from './explain-change.js';
import { readLock } from './lock-file.js';
import { keyInputsFor, stageKey, type KeyInputs } from './stage-key.js';
import { loadStage } from './stage-registry.js';
import { Store } from './store.js';
import { topoOrder } from '../config/stage-graph.js';

export interface StageStatus {
  id: string;
  uses: string;
  state: 'fresh' | 'stale';
  key: string | null;
  reasons: string[];
}

export async function pipelineStatus(config: PipelineConfig, dataDir: string): Promise<StageStatus[]> {
  const store = new Store(dataDir);
  const lock = readLock(config.file);
  const decls = new Map(config.stages.map((s) => [s.id, s]));
  const out = new Map<string, StageStatus>();
  const digests = new Map<string, string>(); // id -> output digest (fresh) or `key:` (volatile)
  for (const id of topoOrder(config.stages)) {
    const decl = decls.get(id)!;
    const def = await loadStage(decl.uses);
    const needs: Record<string, string> = {};
    const staleUp: string[] = [];
    for (const n of decl.needs) {
      const d = digests.get(n);
      if (d === undefined) staleUp.push(n);
      else needs[n] = d;
    }
    const inputs = keyInputsFor(def, decl.with, config as unknown as Record<string, unknown>, dirname(config.file), needs);
    const previous = lock?.stages[id] ? store.readManifest(lock.stages[id]!.uses, lock.stages[id]!.key) : null;
    if (staleUp.length) {
      const reasons = staleUp.map((n) => `upstream ${n} is stale and will run`);
      if (previous) {
        const own = explainChange(previous.keyInputs, { ...inputs, needs: previous.keyInputs.needs });
        reasons.unshift(...own);
      }
      out.set(id, { id, uses: def.kind, state: 'stale', key: null, reasons });
      continue;
    }
    const key = stageKey(inputs);
    const manifest = store.readManifest(def.kind, key);
    if (def.volatile) {
      digests.set(id, `key:${key}`);
      out.set(id, { id, uses: def.kind, state: 'fresh', key, reasons: ['runs with every sampling session'] });
      continue;
    }
    if (manifest) {
      digests.set(id, manifest.outputDigest);
      out.set(id, { id, uses: def.kind, state: 'fresh', key, reasons: [] });
      continue;
    }
    let reasons: string[];
    if (!previous) reasons = [lock?.stages[id] ? 'its last frozen output is gone from the store' : 'never ran'];
    else {
      reasons = explainChange(previous.keyInputs, inputs);
      if (!reasons.length) reasons = ['frozen output for this key is missing'];
    }
    out.set(id, { id, uses: def.kind, state: 'stale', key, reasons });
  }
  return config.stages.map((s) => out.get(s.id)!);
}
