// The operating characteristics a report cites are those of the design the
// run used (harness/report/run-operating.ts): the published default run's own
// launches (reports/lazy-startup/samples.csv) and its adaptive looks give the
// plan it ran, looks after sessions 5 to 9 under a 504-launch budget with
// rho 3, and the Method's sentence says so.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSampleCsv } from '../harness/analysis/parse-sample-csv.js';
import { operatingSentence } from '../harness/comparison/operating-words.js';
import { runOperating } from '../harness/report/run-operating.js';
import { projectRoot } from '../harness/process/project-root.js';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import { runRowsOperating } from '../harness/comparison/run-rows-operating.js';
import { madeUpEffectRows } from './helpers/effect-rows.js';

const dir = join(projectRoot(), 'reports', 'lazy-startup');
const launches = parseSampleCsv(readFileSync(join(dir, 'samples.csv'), 'utf8'), 'samples.csv');
const differences = parseCsvTable(readFileSync(join(dir, 'differences.csv'), 'utf8'))
  .rows.filter((r) => r['kind'] === 'median_difference' && r['metric'] === 'ready' && !r['factor'])
  .map((r) => ({ cohort: r['cohort']!, state: r['state']!, a: r['a']!, b: r['b']!, metric: 'ready' }));
const adaptive = {
  format: 'benchgraph-adaptive/1',
  minSessions: 5,
  maxSessions: 9,
  maxLaunches: 504,
  spendingRho: 3,
  metric: 'ready_ms',
  margin: 0.05,
  minMs: 10,
  sessionsRun: 9,
  comparisons: [],
};
const inputs = (withAdaptive: boolean) =>
  ({ config: { design: { rounds: 2 } }, launches, adaptive: withAdaptive ? adaptive : null }) as unknown as Parameters<typeof runOperating>[0];
const analysis = { differences, rules: { practical: { relative: 0.05, absoluteMs: 10 } } } as unknown as Parameters<typeof runOperating>[1];

test("the published default run's plan, as its report states it: looks after sessions 5 to 9, paid for by the budget, with the fixed design of the same sessions beside it", (t) => {
  const oc = runOperating(inputs(true), analysis)!;
  t.deepEqual(oc.check.looks, [5, 6, 7, 8, 9]);
  t.is(oc.plan.launchesPerSession, 56);
  t.is(oc.plan.plan.maxSessions, 9);
  t.is(oc.check.profiles.length, 44);
  const sentence = operatingSentence(oc, true);
  t.regex(sentence, /looks after sessions 5 to 9, spending alpha·\(k\/9\)\^3 by look k/);
  t.regex(sentence, /The fixed design of the same sessions: /);
  t.truthy(oc.equalPowerFixed, 'a fixed design of equal power exists');
  t.true(oc.equalPowerFixed!.sessions <= 9, `equal power at ${oc.equalPowerFixed!.sessions} sessions`);
});

test('the same launches judged as a fixed design of their 9 sessions: one look at 9, the between-session t named, no fixed design set beside it', (t) => {
  const oc = runOperating(inputs(false), analysis)!;
  t.deepEqual(oc.check.looks, [9]);
  t.is(oc.equalPowerFixed, null);
  const sentence = operatingSentence(oc, false);
  t.regex(sentence, /with no difference, the between-session t calls a direction in/);
  t.notRegex(sentence, /The fixed design of the same sessions/);
});

test('an experiment of arm pairs (made-up effect rows) gets its operating characteristics from its own rows, per metric, and a row in another unit is left out', (t) => {
  const rows = madeUpEffectRows(
    'fast',
    { sessions: 3, rounds: 6 },
    (u) => 400 * (1 + 0.1 * u),
    (u) => 380 * (1 + 0.1 * u),
  );
  const printed = madeUpEffectRows(
    'bytes',
    { sessions: 3, rounds: 6 },
    (u) => 1e6 * (1 + u),
    (u) => 1e6 * (1 + u),
  );
  const oc = runRowsOperating(
    [...rows, ...printed],
    [
      { cohort: 'fast', state: 'none', a: 'after', b: 'before' },
      { cohort: 'bytes', state: 'none', a: 'after', b: 'before' },
    ],
    (c) => (c.cohort === 'fast' ? 'ready_ms' : null),
    { rounds: 6, looks: null, maxLaunches: null, margin: { relative: 0.05, absoluteMs: 10 } },
  )!;
  t.deepEqual(
    oc.check.profiles.map((p) => p.id),
    ['fast none after - before'],
  );
  t.deepEqual(oc.check.looks, [3]);
  t.is(oc.plan.launchesPerSession, 2 * 6 * 2, 'both rows, both sides, 6 rounds');
  t.regex(
    operatingSentence(oc, false, 'rows timed in ms'),
    /variance profiles of the 1 rows timed in ms: one look, after session 3; with no difference, the between-session t calls a direction in/,
  );
});
