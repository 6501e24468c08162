// What planRun needs from the project: the stage definitions a pipeline uses,
// their code digests, and the store read through the frozen check. Its own
// module so that `pipeline status` plans without loading what running needs.
import { relative } from 'node:path';
import type { PipelineConfig } from '../config/pipeline-config.js';
import type { StageDefinition } from '../contract/stage.js';
import { inspectFrozenSync } from './frozen-check.js';
import type { PlanContext } from './plan-run.js';
import type { StageRegistry } from './stage-registry.js';
import type { Store } from './store.js';

/**
 * Loads every stage kind the pipeline uses and binds the store: what planRun
 * needs. The store is read through the frozen check (frozen-check.ts): a
 * corrupted frozen output reads as absent and is listed in `corrupt`.
 */
export async function planContext(config: PipelineConfig, store: Store, registry: StageRegistry): Promise<PlanContext & { corrupt: Map<string, string> }> {
  const definitions = new Map<string, StageDefinition>();
  for (const s of config.stages) if (!definitions.has(s.uses)) definitions.set(s.uses, await registry.load(s.uses));
  const corrupt = new Map<string, string>(); // kind/key -> what is wrong
  const readManifest = (kind: string, key: string) => {
    const s = inspectFrozenSync(store, kind, key);
    if (s.state === 'corrupt') corrupt.set(`${kind}/${key}`, `${relative(process.cwd(), s.file) || s.file} ${s.problem}`);
    return s.state === 'intact' ? s.manifest : null;
  };
  return { config, definitions, code: (def) => registry.code(def), readManifest, corrupt };
}
