// Benchmark helper (not a test): the full analysis JSON of fixed inputs, so a
// change to the statistics' speed can be shown to change no number. Analyses
// the published default run's samples.csv and every archived run's (with the
// pipeline.yaml analysis rules; once as they are and once with the last session
// as a confirmation session), the made-up phase-mark samples (spans), the
// dataset of bench/analyze-100k.ts and the 16 two-level bootstraps of
// bench/analyze-sessions.ts. Writes one JSON file per input into the folder
// given and prints each one's sha256; two folders from before and after a
// change must hold byte-identical files (cmp -s or sha256sum -c).
// Run: npx tsc -p . && node dist/bench/analysis-fingerprint.js <out-dir> [--quick]
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { analysisRules, type AnalysisRules } from '../harness/config/analysis-rules.js';
import type { AnalysisResult, ConfirmationInput } from '../harness/analysis/analysis-result.js';
import type { SampleData } from '../harness/analysis/sample-data.js';
import { isDeepStrictEqual } from 'node:util';
import { analyzeSamplesInWorkers } from '../harness/analysis/analyze-in-workers.js';
import { analyzeSamples } from '../harness/analysis/analyze-samples.js';
import { parseSampleCsv } from '../harness/analysis/parse-sample-csv.js';
import { readSamples } from '../harness/analysis/read-samples.js';
import { analyze100kRows, analyze100kRules } from './analyze-100k-data.js';
import { writeSamplesTable } from '../harness/analysis/write-samples-table.js';
import type { SampleRow } from '../harness/db/sample-row.js';
import { seededRandom } from '../harness/stats/seeded-random.js';
import { pairSessions, twoLevelBootstrap, type SessionRow } from '../harness/stats/two-level-bootstrap.js';
import { madeUpPhaseSamples } from '../test/helpers/phase-samples.js';

const out = process.argv[2];
if (!out) {
  console.error('usage: node dist/bench/analysis-fingerprint.js <out-dir> [--quick]');
  process.exit(2);
}
const quick = process.argv.includes('--quick');
await mkdir(out, { recursive: true });
const tmp = await mkdtemp(join(tmpdir(), 'benchgraph-fingerprint-'));

async function emit(name: string, value: unknown): Promise<void> {
  const text = JSON.stringify(value);
  await writeFile(join(out!, `${name}.json`), text);
  console.log(`${createHash('sha256').update(text).digest('hex')}  ${name}.json`);
}

/** The analyze stage's result (worker threads); in a full run also checked against analyzeSamples() in this thread. */
async function analyzed(data: SampleData, rules: AnalysisRules, confirmation: ConfirmationInput | null): Promise<AnalysisResult> {
  const result = await analyzeSamplesInWorkers(data, rules, null, confirmation);
  if (!quick && !isDeepStrictEqual(result, analyzeSamples(data, rules, null, confirmation))) {
    console.error('analyzeSamplesInWorkers and analyzeSamples differ');
    process.exitCode = 1;
  }
  return result;
}

async function analyzeRows(name: string, rows: readonly SampleRow[], section: unknown): Promise<void> {
  const file = join(tmp, `${name}.duckdb`);
  await writeSamplesTable(file, rows);
  const data = await readSamples(file);
  const rules = analysisRules(section);
  await emit(name, await analyzed(data, rules, null));
  const sessions = Math.max(0, ...data.values.map((v) => v.session));
  if (sessions > 1) await emit(`${name}.confirm`, await analyzed(data, rules, { plannedSessions: sessions - 1, session: sessions }));
}

try {
  const section = (parse(await readFile('pipeline.yaml', 'utf8')) as { analysis: unknown }).analysis;
  const csvs = ['reports/lazy-startup/samples.csv'];
  for (const run of (await readdir('reports/lazy-startup/runs')).sort()) csvs.push(`reports/lazy-startup/runs/${run}/samples.csv`);
  for (const csv of csvs) {
    const name = csv
      .replace(/^reports\//, '')
      .replace(/\/samples\.csv$/, '')
      .replace(/\//g, '_');
    await analyzeRows(name, parseSampleCsv(await readFile(csv, 'utf8'), csv), section);
  }
  const spanRules = analysisRules({ bootstrap: { resamples: 2000, seed: 'fingerprint' }, comparisons: [{ a: 'docker', b: 'lazy' }] });
  await emit('made-up-phases', await analyzed(madeUpPhaseSamples(3, 12), spanRules, null));

  if (!quick) {
    await analyzeRows('analyze-100k', analyze100kRows(), analyze100kRules);

    // the rows and calls of bench/analyze-sessions.ts
    const random = seededRandom('bench-sessions');
    const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const results: unknown[] = [];
    for (const cohort of ['numpy', 'shell']) {
      for (const state of ['cold', 'warm']) {
        const ready: SessionRow[] = [];
        const completion: SessionRow[] = [];
        for (let session = 1; session <= 3; session++) {
          const shift = Math.exp(0.2 * normal());
          for (let round = 1; round <= 2778; round++) {
            for (const [path, medianMs] of Object.entries({ docker: 400, lazy: 180, 'oci-full': 600 })) {
              const readyMs = medianMs * (state === 'warm' ? 0.4 : 1) * shift * Math.exp(0.1 * normal());
              ready.push({ session, round, path, value: readyMs });
              completion.push({ session, round, path, value: readyMs + 5 + random() });
            }
          }
        }
        for (const [metric, list] of [
          ['ready', ready],
          ['completion', completion],
        ] as const) {
          for (const { a, b } of [
            { a: 'docker', b: 'lazy' },
            { a: 'oci-full', b: 'lazy' },
          ]) {
            const key = `${cohort}|${state}|${metric}`;
            results.push(twoLevelBootstrap(pairSessions(list, a, b), { resamples: 5000, confidence: 0.95, seed: `${key}|${a}|${b}` }));
          }
        }
      }
    }
    await emit('analyze-sessions', results);
  }
} finally {
  await rm(tmp, { recursive: true, force: true });
}
