// Effects: publishes the stages of a pulled run that have a publish folder
// (the report into reports/<experiment>/, filed in its runs/ archive), as a
// run that reused them would.
import type { PipelineConfig } from '../config/pipeline-config.js';
import { publishStage, type FrozenRef } from '../engine/publish-stage.js';
import { projectStageRegistry } from '../engine/stage-registry.js';
import { Store } from '../engine/store.js';
import type { RunConfig } from './run-artifact.js';

export async function publishPulled(config: PipelineConfig, dataDir: string, run: RunConfig, log: (line: string) => void): Promise<void> {
  const store = new Store(dataDir);
  const registry = projectStageRegistry(null);
  const frozen: FrozenRef[] = Object.entries(run.stages).map(([id, s]) => ({ id, uses: s.uses, key: s.key, manifest: store.readManifest(s.uses, s.key) }));
  for (const p of frozen) {
    if (!config.stages.some((d) => d.id === p.id && d.uses === p.uses)) continue;
    publishStage(config, store, await registry.load(p.uses), p, frozen, null, log);
  }
}
