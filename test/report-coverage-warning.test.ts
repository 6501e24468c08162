// The report stage given the coverage simulation's table (with: coverage_table):
// a design the simulation did not reach, or one it showed covering less than
// 93%, gets a warning right under the summary table; the default design
// (3 sessions x 10 rounds, covered) gets none. Real analyze and report stages
// on synthetic launches, the real published table.
import test from 'ava';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runReport } from './helpers/report-run.js';

const table = resolve('reports/calibration/coverage.csv');

async function openingOf(design: { sessions: number; rounds: number }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-coverage-warning-'));
  try {
    const out = await runReport(dir, undefined, (cfg) => Object.assign(cfg.design, design), { coverage_table: table });
    const md = await readFile(join(out.reportDir, 'report.md'), 'utf8');
    return md.slice(0, md.indexOf('\n## '));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('a design below every simulated one is warned about under the summary table, naming the table', async (t) => {
  const opening = await openingOf({ sessions: 1, rounds: 20 });
  t.regex(opening, /\*\*Warning:\*\* the intervals of this design may cover less than they say: 1 session × 20 rounds is below every calibrated design/);
  t.true(opening.includes('reports/calibration/coverage.csv'));
});

test('a design the simulation showed covering less than 93% is warned about with its coverage; the covered default design is not', async (t) => {
  t.regex(await openingOf({ sessions: 3, rounds: 20 }), /the two-level bootstrap interval covered 89\.8% of true differences/);
  t.false((await openingOf({ sessions: 3, rounds: 10 })).includes('**Warning:**'));
});
