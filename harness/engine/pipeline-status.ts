// `pipeline status`: the run's plan, in words: which stages are fresh (a frozen
// output exists for their current key) and, for the stale ones, why.
import type { PipelineConfig } from '../config/pipeline-config.js';
import { readLock } from './lock-file.js';
import { planRun } from './plan-run.js';
import { planContext } from './run-pipeline.js';
import { projectStageRegistry, type StageRegistry } from './stage-registry.js';
import { Store } from './store.js';

export interface StageStatus {
  id: string;
  uses: string;
  state: 'fresh' | 'stale';
  key: string | null;
  reasons: string[];
}

export async function pipelineStatus(config: PipelineConfig, dataDir: string, registry: StageRegistry = projectStageRegistry(dataDir)): Promise<StageStatus[]> {
  try {
    const ctx = await planContext(config, new Store(dataDir), registry);
    return planRun(ctx, { lock: readLock(config.file) }).map((p) => {
      if (p.volatile) return { id: p.id, uses: p.uses, state: 'fresh', key: p.key, reasons: ['runs with every sampling session'] };
      const fresh = p.action === 'reuse';
      return { id: p.id, uses: p.uses, state: fresh ? 'fresh' : 'stale', key: p.key, reasons: fresh ? [] : p.reasons };
    });
  } finally {
    registry.close();
  }
}
