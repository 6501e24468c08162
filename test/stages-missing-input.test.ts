// A stage run without the stage that writes what it reads stops with one user
// error: the stage, the stage it needs, the file, and the key to add it to
// (contract/exchange-files.ts missingInput), the same words in every stage.
import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../harness/errors.js';
import type { PipelineConfig } from '../harness/config/pipeline-config.js';
import type { StageDefinition } from '../harness/contract/stage.js';
import { sectionsOf } from '../harness/config/typed-sections.js';
import { stageContext } from './helpers/stage-context.js';
import analyze from '../stages/analyze.js';
import commitAnalyze from '../stages/commit-analyze.js';
import effectsAnalyze from '../stages/effects-analyze.js';
import verify from '../stages/verify.js';

const cases: [StageDefinition, string, string][] = [
  [analyze, 'sample or import-samples', 'samples.duckdb'],
  [commitAnalyze, 'commit-sample', 'samples.duckdb'],
  [effectsAnalyze, 'effects-sample', 'samples.duckdb'],
  [verify, 'pin', 'pins.json'],
];

for (const [stage, writer, file] of cases) {
  test(`${stage.kind} without its input names the ${writer} stage, ${file} and the needs key`, async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'missing-input-'));
    try {
      const config = { ...sectionsOf({}), file: join(dir, 'pipeline.yaml'), experiment: { name: 'e' }, effects: { rows: [] } } as unknown as PipelineConfig;
      const e = await t.throwsAsync(stage.run(stageContext(dir, 'mine', join(dir, 'out'), {}, config)), { instanceOf: UserError });
      t.is(e!.message, `stage mine needs the ${writer} stage (for ${file})`);
      t.is(e!.place.key, 'stages.mine.needs');
      t.is(e!.place.file, join(dir, 'pipeline.yaml'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
