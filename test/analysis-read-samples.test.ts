import test from 'ava';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSampleCsv } from '../harness/analysis/parse-sample-csv.js';
import { readSamples } from '../harness/analysis/read-samples.js';
import { referenceReadSamples } from './helpers/reference-read-samples.js';
import { syntheticSamples } from '../harness/analysis/synthetic-samples.js';
import { writeSamplesTable } from '../harness/analysis/write-samples-table.js';
import type { SampleRow } from '../harness/db/sample-row.js';
import { Database } from '../harness/db/duckdb.js';

/** `sql`: run on the written table before reading (e.g. to add a recorded position column). */
async function bothReads(rows: readonly SampleRow[], sql: string[] = []): Promise<[unknown, unknown]> {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-lean-'));
  try {
    const file = join(dir, 'samples.duckdb');
    await writeSamplesTable(file, rows);
    const db = await Database.open(file);
    for (const statement of sql) await db.exec(statement);
    db.close();
    return [await readSamples(file), await referenceReadSamples(file)];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('the cell-by-cell reader gives the sample data of the straightforward reference for the published default run, launch orders derived from order_in_round', async (t) => {
  const csv = 'reports/lazy-startup/samples.csv';
  const [lean, full] = await bothReads(parseSampleCsv(await readFile(csv, 'utf8'), csv));
  t.true((full as { values: unknown[] }).values.length > 0);
  t.deepEqual(lean, full);
});

test('the cell-by-cell reader gives the sample data of the straightforward reference with recorded positions and previous paths, failures and three sessions (synthetic data)', async (t) => {
  const rows = syntheticSamples({
    experiment: 'lean',
    cohorts: ['numpy', 'shell'],
    paths: { docker: 400, lazy: 180, 'oci-full': 600 },
    states: ['cold', 'warm'],
    rounds: 30,
    seed: 'lean',
    failEvery: 7,
  }).map((r, i) => ({ ...r, session: 1 + Math.floor(((r['round'] as number) - 1) / 10), previous_path: i % 4 === 1 ? null : 'docker' }));
  // a position recorded for every other launch (the rest derive theirs)
  const [lean, full] = await bothReads(rows, [
    'ALTER TABLE samples ADD COLUMN position INTEGER',
    'UPDATE samples SET position = order_in_round + 1 WHERE hash(launch_id) % 2 = 0',
  ]);
  t.true((full as { values: { position: number; previousPath: string | null }[] }).values.some((v) => v.previousPath === 'docker'));
  t.deepEqual(lean, full);
});
