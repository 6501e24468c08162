// variance.csv (issue 28): the variance components of analysis.json as a
// published table, on the archived same-key pair of the default experiment
// (2026-12-01-7b4874506693 with its replicate 2026-12-01-7804b9079418).
import test from 'ava';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analysisRules } from '../harness/config/analysis-rules.js';
import { analyzeSamples } from '../harness/analysis/analyze-samples.js';
import { readReplicates } from '../harness/analysis/read-replicates.js';
import { readSamples } from '../harness/analysis/read-samples.js';
import { varianceColumns, varianceCsv } from '../harness/analysis/variance-csv.js';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import type { PipelineConfig } from '../harness/config/pipeline-config.js';
import { projectRoot } from '../harness/process/project-root.js';
import importSamples from '../stages/import-samples.js';
import { stageContext } from './helpers/stage-context.js';

const RUNS = join(projectRoot(), 'reports', 'lazy-startup', 'runs');
const THIS = '2026-12-01-7b4874506693';
const rules = analysisRules({ bootstrap: { resamples: 200, seed: 'variance-csv-test' }, comparisons: [{ a: 'docker', b: 'lazy' }] });

async function analyzeArchived(withReplicates: boolean) {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-variance-'));
  try {
    const out = join(dir, 'import-out');
    await mkdir(out);
    await importSamples.run(stageContext(dir, 'import', out, {}, {} as PipelineConfig, { file: join(RUNS, THIS, 'samples.csv') }));
    const sample = (JSON.parse(readFileSync(join(RUNS, THIS, 'run.json'), 'utf8')) as { stages: Record<string, { key: string; outputDigest: string }> }).stages[
      'sample'
    ]!;
    const replicates = withReplicates ? { host: 'h', folder: 'reports/lazy-startup/runs', runs: readReplicates(RUNS, sample) } : null;
    return analyzeSamples(await readSamples(join(out, 'samples.duckdb')), rules, null, null, replicates);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('variance.csv has a row per cell, difference and level with the REML components of analysis.json, and the columns its schema describes', async (t) => {
  const a = await analyzeArchived(true);
  const table = parseCsvTable(varianceCsv(a)!);
  const schema = JSON.parse(readFileSync(join(projectRoot(), 'schemas', 'report-variance.schema.json'), 'utf8')) as { properties: Record<string, unknown> };
  t.deepEqual(table.header, [...varianceColumns]);
  t.deepEqual(Object.keys(schema.properties), [...varianceColumns]);
  const cells = a.rerun.cells;
  const diffs = a.differences.filter((d) => d.replicates);
  t.true(cells.length > 0 && diffs.length > 0);
  t.is(table.rows.length, cells.reduce((n, c) => n + c.components.length, 0) + diffs.reduce((n, d) => n + d.replicates!.components.length, 0));
  // every cell's estimable components, as analysis.json has them (a level it cannot estimate is empty)
  for (const c of cells)
    for (const x of c.components) {
      const row = table.rows.find(
        (r) =>
          r['kind'] === 'cell' &&
          r['cohort'] === c.cohort &&
          r['path'] === c.path &&
          r['state'] === c.state &&
          r['metric'] === c.metric &&
          r['level'] === x.level,
      )!;
      t.is(row['scale'], 'ln ms');
      if (x.variance === null) t.is(row['variance'], '');
      else t.true(Math.abs(Number(row['variance']) - x.variance) <= 1e-5 * Math.abs(x.variance), `${row['variance']} against ${x.variance}`);
    }
  t.true(table.rows.some((r) => r['variance'] !== ''));
});

test('a run without replicates publishes no variance.csv', async (t) => {
  t.is(varianceCsv(await analyzeArchived(false)), null);
});
