// Replicates from the archive (issue 28): archived runs of the default
// experiment with the same sample-stage key pool as hosts → runs → sessions
// → rounds, and every difference gets its rerun interval.
import test from 'ava';
import { mkdtemp, mkdir, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { analysisRules } from '../harness/config/analysis-rules.js';
import { analyzeSamples } from '../harness/analysis/analyze-samples.js';
import type { AnalysisResult } from '../harness/analysis/analysis-result.js';
import { readReplicates, replicateFiles } from '../harness/analysis/read-replicates.js';
import analyzeStage from '../stages/analyze.js';
import { readSamples } from '../harness/analysis/read-samples.js';
import type { PipelineConfig } from '../harness/config/pipeline-config.js';
import { projectRoot } from '../harness/process/project-root.js';
import { hostKindDrift } from '../harness/stats/host-kind-drift.js';
import importSamples from '../stages/import-samples.js';
import { stageContext } from './helpers/stage-context.js';

const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;
const RUNS = join(projectRoot(), 'reports', 'lazy-startup', 'runs');
const THIS = '2026-12-01-7b4874506693';
const OTHER = '2026-12-01-7804b9079418';
const record = JSON.parse(readFileSync(join(RUNS, THIS, 'run.json'), 'utf8')) as { stages: Record<string, { key: string; outputDigest: string }> };
const sample = record.stages['sample']!;
const rules = analysisRules({ bootstrap: { resamples: 400, seed: 'replicates-test' }, comparisons: [{ a: 'docker', b: 'lazy' }] });

async function analyzeArchived(withReplicates: boolean): Promise<AnalysisResult> {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-replicates-'));
  try {
    const out = join(dir, 'import-out');
    await mkdir(out);
    await importSamples.run(stageContext(dir, 'import', out, {}, {} as PipelineConfig, { file: join(RUNS, THIS, 'samples.csv') }));
    const data = await readSamples(join(out, 'samples.duckdb'));
    const replicates = withReplicates ? { host: 'h', folder: 'reports/lazy-startup/runs', runs: readReplicates(RUNS, sample) } : null;
    return analyzeSamples(data, rules, null, null, replicates);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

let pooled: AnalysisResult;
let single: AnalysisResult;
test.before(async () => {
  [pooled, single] = await Promise.all([analyzeArchived(true), analyzeArchived(false)]);
});

test('an archived run has as replicates the other runs with its sample key, not itself', (t) => {
  t.deepEqual(
    readReplicates(RUNS, sample).map((r) => r.id),
    [OTHER],
  );
});

test("the analyze key's archive files leave out the archived copy of the run under analysis, so publishing that run does not change its key", (t) => {
  const all = replicateFiles(RUNS);
  const own = replicateFiles(RUNS, [sample.outputDigest]);
  t.true(all.includes(join(RUNS, THIS, 'run.json')));
  t.false(
    own.some((f) => f.startsWith(join(RUNS, THIS))),
    'this run, archived, is not among its own key files',
  );
  t.deepEqual(
    own,
    all.filter((f) => !f.startsWith(join(RUNS, THIS) + '/')),
  );
  // the stage asks with its upstream outputs and the pipeline folder (the folder is relative to it)
  const fromStage = analyzeStage.inputFiles!(
    { replicates: 'reports/lazy-startup/runs' },
    { pipelineDir: projectRoot(), needs: { sample: sample.outputDigest } },
  );
  t.deepEqual(
    fromStage,
    own.map((f) => f.slice(projectRoot().length + 1)),
  );
});

test("a same-key rerun whose verify output equals this run's (the same artifact hashes) still joins the analyze key, so archiving it reruns the analysis", (t) => {
  const verify = record.stages['verify']!;
  const other = (JSON.parse(readFileSync(join(RUNS, OTHER, 'run.json'), 'utf8')) as typeof record).stages;
  // the two same-key runs of 2026-12-01 share pin and verify outputs and differ in the sample's
  t.is(other['verify']!.outputDigest, verify.outputDigest);
  t.not(other['sample']!.outputDigest, sample.outputDigest);
  const own = replicateFiles(RUNS, [sample.outputDigest, verify.outputDigest]);
  t.true(own.includes(join(RUNS, OTHER, 'run.json')));
  t.false(own.some((f) => f.startsWith(join(RUNS, THIS) + '/')));
});

test('with a replicate every difference has components over runs, sessions and rounds and the scope names the runs', (t) => {
  t.is(pooled.rerun.source, 'replicates');
  t.deepEqual(
    pooled.rerun.runs.map((r) => r.id),
    ['this run', OTHER],
  );
  t.true(pooled.differences.length > 0);
  for (const d of pooled.differences) {
    const runs = d.replicates!.components.find((c) => c.level === 'runs')!;
    t.is(runs.units, 2, `${d.cohort} ${d.state} ${d.metric}`);
    t.not(d.replicates!.components.find((c) => c.level === 'rounds')!.variance, null);
  }
  t.regex(pooled.rerun.figureSource, new RegExp(OTHER));
});

test('the rerun parts of analysis.json match schemas/analysis-rerun.schema.json, with and without replicates', async (t) => {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
  const validate = ajv.compile(JSON.parse(await readFile(join(projectRoot(), 'schemas', 'analysis-rerun.schema.json'), 'utf8')));
  for (const a of [pooled, single]) t.true(validate(JSON.parse(JSON.stringify(a))), JSON.stringify(validate.errors));
});

test('one run: every rerun interval holds the 95% interval and the scope assumes the host-kind figure', (t) => {
  t.is(single.rerun.source, 'host kind');
  t.is(single.rerun.runLogVariance, hostKindDrift.runLogVariance);
  for (const d of single.differences.filter((x) => x.lowMs !== null)) {
    t.true(d.rerun!.lowMs < d.lowMs! && d.rerun!.highMs > d.highMs!, `${d.cohort} ${d.state} ${d.metric}`);
    t.is(d.replicates, undefined);
  }
});
