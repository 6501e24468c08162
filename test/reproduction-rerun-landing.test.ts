// The figures of reports/reproductions/lazy-startup-rerun-landing/README.md
// are recomputed from the committed tables (bench/rerun-landing-figures.ts),
// so none of them is typed by hand (issue 28).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { figureTable, LANDING_DIR, LANDING_RUNS_ADAPTIVE } from '../bench/rerun-landing-figures.js';
import { projectRoot } from '../harness/process/project-root.js';

test('the rerun-landing README holds the table the archived and re-analysed runs give today', (t) => {
  const readme = readFileSync(join(projectRoot(), LANDING_DIR, 'README.md'), 'utf8');
  const table = figureTable(projectRoot());
  t.true(readme.includes(table), `expected in the README:\n${table}`);
  // six ordered pairs: each rerun against the published run and against the other, both ways
  const rows = table.split('\n').slice(2);
  t.is(rows.length, 6);
});

test("the rerun-landing README holds the table of the adaptive run's two reruns as the archived runs give it today", (t) => {
  const readme = readFileSync(join(projectRoot(), LANDING_DIR, 'README.md'), 'utf8');
  const table = figureTable(projectRoot(), LANDING_RUNS_ADAPTIVE);
  t.true(readme.includes(table), `expected in the README:\n${table}`);
  t.is(table.split('\n').slice(2).length, 6);
});
