// `pipeline status`: the run's plan, in words: which stages are fresh (a frozen
// output exists for their current key) and, for the stale ones, why. A stage
// whose run for its current key was stopped part way (its resumable scratch
// folder, .data/work/<kind>/<key>/, is still there: a successful run removes
// it) is 'interrupted' when a frozen output of that key exists, as after
// Ctrl-C of `run --force sample`, and says so among the reasons when stale.
// A fresh stage whose key is not the lock's says so: the last run (and the
// report it published) was made from another configuration, e.g. a --set.
import { existsSync, readdirSync } from 'node:fs';
import { relative } from 'node:path';
import type { PipelineConfig } from '../config/pipeline-config.js';
import { readLock } from './lock-file.js';
import { planRun } from './plan-run.js';
import { planContext } from './plan-context.js';
import { projectStageRegistry, type StageRegistry } from './stage-registry.js';
import { Store } from './store.js';

export interface StageStatus {
  id: string;
  uses: string;
  state: 'fresh' | 'stale' | 'interrupted';
  key: string | null;
  reasons: string[];
}

export async function pipelineStatus(config: PipelineConfig, dataDir: string, registry: StageRegistry = projectStageRegistry(dataDir)): Promise<StageStatus[]> {
  try {
    const ctx = await planContext(config, new Store(dataDir), registry);
    const store = new Store(dataDir);
    const lock = readLock(config.file, dataDir);
    return planRun(ctx, { lock }).map((p): StageStatus => {
      if (p.volatile) return { id: p.id, uses: p.uses, state: 'fresh', key: p.key, reasons: ['runs with every sampling session'] };
      const fresh = p.action === 'reuse';
      const work = p.key ? store.workDir(ctx.definitions.get(p.uses)?.kind ?? p.uses, p.key) : null;
      const partial = work !== null && existsSync(work) && readdirSync(work).length > 0 ? relative(process.cwd(), work) || work : null;
      if (fresh && partial)
        return {
          id: p.id,
          uses: p.uses,
          state: 'interrupted',
          key: p.key,
          reasons: [
            `a rerun of this key was interrupted; its partial work is in ${partial}: \`pipeline run --force ${p.id}\` resumes it, \`pipeline run\` keeps the frozen output`,
          ],
        };
      // fresh here, but the lock (and so what the last run published) names another key: that run was made from another
      // configuration than this file's (a --set, or the file as it was)
      const locked = lock?.stages[p.id]?.key;
      if (fresh && locked !== undefined && p.key !== null && locked !== p.key)
        return {
          id: p.id,
          uses: p.uses,
          state: 'fresh',
          key: p.key,
          reasons: [
            `its output for this file's key is frozen, but the lock names key ${locked.slice(0, 12)}: the last run, and what it published, used another configuration (a --set, or an earlier version of the file); \`pipeline run\` makes this file's the lock's`,
          ],
        };
      if (fresh) return { id: p.id, uses: p.uses, state: 'fresh', key: p.key, reasons: [] };
      return {
        id: p.id,
        uses: p.uses,
        state: 'stale',
        key: p.key,
        reasons: partial ? [...p.reasons, `interrupted earlier: \`pipeline run\` resumes from ${partial}`] : p.reasons,
      };
    });
  } finally {
    registry.close();
  }
}
