// A StageContext and StageInputs for running one real stage module in process
// (tests that call a stage's run() directly, without the engine).
import { join } from 'node:path';
import type { PipelineConfig } from '../../harness/config/pipeline-config.js';
import type { StageContext, StageInput } from '../../harness/contract/stage.js';
import { noServices } from '../../harness/contract/running-services.js';

export function stageContext(
  dir: string,
  id: string,
  outputDir: string,
  inputs: Record<string, StageInput>,
  config: PipelineConfig,
  params: Record<string, unknown> = {},
): StageContext {
  return {
    id,
    kind: id,
    params,
    config,
    outputDir,
    observationsDir: join(dir, 'observations', id),
    inputs,
    workDir: join(dir, 'work', id),
    dataDir: join(dir, '.data'),
    pipelineDir: dir,
    pipelineFile: join(dir, 'pipeline.yaml'),
    services: noServices,
    restartServices: async () => noServices,
    key: '0'.repeat(64),
    log: () => {},
    interactive: false,
    signal: new AbortController().signal,
  };
}

/** A frozen input as the engine passes it, with a made-up digest. */
export function stageInput(id: string, outputDir: string, digestChar = 'a'): StageInput {
  return { id, kind: id, outputDir, outputDigest: digestChar.repeat(64), observationsDir: join(outputDir, '..', 'observations'), observationsDigest: '' };
}
