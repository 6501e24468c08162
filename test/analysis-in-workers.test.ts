import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { madeUpPhaseSamples } from './helpers/phase-samples.js';
import { analysisRules } from '../harness/config/analysis-rules.js';
import { analyzeSamples } from '../harness/analysis/analyze-samples.js';
import { analyzeSamplesInWorkers } from '../harness/analysis/analyze-in-workers.js';
import { readSamples } from '../harness/analysis/read-samples.js';
import { syntheticSamples } from '../harness/analysis/synthetic-samples.js';
import { writeSamplesTable } from '../harness/analysis/write-samples-table.js';
import type { SampleData } from '../harness/analysis/sample-data.js';

const rules = analysisRules({
  bootstrap: { resamples: 400, seed: 'workers' },
  comparisons: [
    { a: 'docker', b: 'lazy' },
    { a: 'oci-full', b: 'lazy' },
  ],
});

/** Seeded synthetic samples in three sessions (a session per block of rounds), read back through samples.duckdb. */
async function synthetic(): Promise<SampleData> {
  const rows = syntheticSamples({
    experiment: 'workers',
    cohorts: ['numpy', 'shell'],
    paths: { docker: 400, lazy: 180, 'oci-full': 600 },
    states: ['cold', 'warm'],
    rounds: 60,
    seed: 'workers',
    failEvery: 37,
  }).map((r) => ({ ...r, session: 1 + Math.floor(((r['round'] as number) - 1) / 20) }));
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-workers-'));
  try {
    const file = join(dir, 'samples.duckdb');
    await writeSamplesTable(file, rows);
    return await readSamples(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('the analysis in 1, 2 and 3 threads gives analyzeSamples() exactly, with and without a confirmation session (synthetic data)', async (t) => {
  const data = await synthetic();
  for (const confirmation of [null, { plannedSessions: 2, session: 3 }]) {
    const expected = analyzeSamples(data, rules, null, confirmation);
    t.true(expected.differences.length > 0 && expected.cells.some((c) => c.position !== null));
    for (const workers of [1, 2, 3]) t.deepEqual(await analyzeSamplesInWorkers(data, rules, null, confirmation, workers), expected, `${workers} threads`);
  }
});

test('the analysis in worker threads gives the span statistics of analyzeSamples() (made-up phase marks)', async (t) => {
  const data = madeUpPhaseSamples(3, 8);
  const spanRules = analysisRules({ bootstrap: { resamples: 300, seed: 'spans' }, comparisons: [{ a: 'docker', b: 'lazy' }] });
  const expected = analyzeSamples(data, spanRules, null);
  t.true(expected.spans.length > 0);
  t.deepEqual(await analyzeSamplesInWorkers(data, spanRules, null, null, 2), expected);
});
