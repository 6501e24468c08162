// The real analyze and report stages on a samples.duckdb with a phases table
// (synthetic launches, made-up marks): the analysis reads each launch's marks
// by launch id, the report writes phases.csv, lists it among the downloads and
// says where the cold time goes with intervals.
import test from 'ava';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../harness/db/duckdb.js';
import { writeSamplesTable } from '../harness/analysis/write-samples-table.js';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import { reportSamples, runReport } from './helpers/report-run.js';

let dir = '';
let reportDir = '';
let marked = 0;

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'benchgraph-phases-e2e-'));
  const file = join(dir, 'samples.duckdb');
  const rows = reportSamples();
  await writeSamplesTable(file, rows);
  const db = await Database.open(file);
  try {
    await db.exec('CREATE TABLE phases (launch_id VARCHAR NOT NULL, seq INTEGER NOT NULL, name VARCHAR NOT NULL, at_ms DOUBLE NOT NULL)');
    for (const r of rows) {
      if (r['state'] !== 'cold' || typeof r['ready_ms'] !== 'number') continue;
      const ready = r['ready_ms'];
      const marks =
        r['path'] === 'docker'
          ? [['pull-done', 0.9 * ready]]
          : r['path'] === 'oci-full'
            ? [
                ['copy-done', 0.05 * ready],
                ['unpack-done', 0.95 * ready],
              ]
            : [];
      for (const [i, [name, at]] of marks.entries()) await db.exec('INSERT INTO phases VALUES ($1, $2, $3, $4)', [String(r['launch_id']), i + 1, name!, at!]);
      if (marks.length && r['phase'] === 'formal') marked++;
    }
    await db.checkpoint();
  } finally {
    db.close();
  }
  ({ reportDir } = await runReport(dir, file));
});
test.after.always(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('phases.csv holds the marks of every valid formal launch that printed them, beside the report, and the downloads line lists it', async (t) => {
  t.true(existsSync(join(reportDir, 'phases.csv')));
  const rows = parseCsvTable(await readFile(join(reportDir, 'phases.csv'), 'utf8')).rows;
  const withMarks = new Set(rows.filter((r) => r['mark'] !== 'ready').map((r) => r['launch_id']));
  t.is(withMarks.size, marked);
  t.false(
    rows.some((r) => r['launch_id']!.startsWith('W')),
    'no warmup launch',
  );
  const md = await readFile(join(reportDir, 'report.md'), 'utf8');
  t.regex(md, /\[phases\.csv\]\(phases\.csv\)/);
});

test('the report says where the cold time goes, span by span with intervals, for each comparison', async (t) => {
  const md = await readFile(join(reportDir, 'report.md'), 'utf8');
  const section = md.slice(md.indexOf('## Where the cold time goes'));
  t.true(md.includes('## Where the cold time goes'));
  t.regex(section, /\| oci-full \| cold \| \d+ \| copy [\d.]+ \[[\d.]+, [\d.]+\] → unpack [\d.]+ \[[\d.]+, [\d.]+\] → to Ready [\d.]+ \[/);
  t.regex(section, /\| docker − lazy \| cold \| -?[\d.]+ \[-?[\d.]+, -?[\d.]+\] \| pull [\d.]+ \[[\d.]+, [\d.]+\]; to Ready /);
});
