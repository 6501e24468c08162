// The run-level step test of change-points.ts and the shared factor of
// run-drift.ts, on made-up series (our own logic): steps are judged against
// the between-run variation, never against the sessions of one run.
import test from 'ava';
import { KNOWN_DF, levelSteps, pooledSpread, type LevelSeries, type Spread } from '../harness/history/change-points.js';
import { runDrift } from '../harness/history/run-drift.js';
import { CELL_LOG_SD } from '../harness/stats/host-kind-drift.js';

const hostKind = (): Spread => ({ sd: CELL_LOG_SD, df: KNOWN_DF, source: 'host-kind', runs: [] });
const series = (levels: number[], sessions = 3): LevelSeries => ({ levels: levels.map(Math.log), sessions: levels.map(() => sessions) });

test('a step of 30% between runs 3 and 4 is found against the host-kind figure, with its ratio (made-up levels)', (t) => {
  const steps = levelSteps(series([100, 101, 99, 130, 131, 129]), hostKind, 5);
  t.deepEqual(
    steps.map((s) => s.run),
    [4],
  );
  t.true(Math.abs(steps[0]!.ratio - 1.3) < 0.01);
  t.true(steps[0]!.low < steps[0]!.ratio && steps[0]!.ratio < steps[0]!.high);
  t.is(steps[0]!.spread.source, 'host-kind');
});

test('a step smaller than the between-run variation is not found, however tight the sessions of each run (made-up levels)', (t) => {
  // 4% against a between-run sd of 5%: each run's sessions may agree to 0.1%, the runs do not
  const wide: Spread = { sd: 0.05, df: 20, source: 'replicates', runs: [1, 2, 3] };
  t.deepEqual(
    levelSteps(series([100, 100.1, 99.9, 104, 104.1, 103.9]), () => wide, 5),
    [],
  );
});

test('a side with fewer than 3 sessions offers no step (made-up levels)', (t) => {
  t.deepEqual(levelSteps(series([100, 200], 2), hostKind, 1), []);
  t.is(levelSteps(series([100, 100, 200, 200], 2), hostKind, 1).length, 1);
});

test('the pooled between-run sd is taken around each replicate group’s own mean, with one degree of freedom less per group', (t) => {
  const p = pooledSpread([[1, 3], [10, 12, 14], [7]]);
  // (2 + 8) / (1 + 2) squared deviations per degree of freedom
  t.deepEqual(p, { sd: Math.sqrt(10 / 3), df: 3 });
  t.is(pooledSpread([[1], [2]]), null);
});

test('the shared factor takes a move of every cell out, and leaves the one cell that moved more (made-up runs)', (t) => {
  const base = [100, 300, 700, 1500];
  const perRun = (cell: number, extra: number): number[][] =>
    [1, 1.01, 0.99, 1.15, 1.16, 1.14].map((f, r) => [base[cell]! * f * (r >= 3 ? extra : 1) * (1 + 0.002 * ((cell + r) % 3))]);
  const drift = runDrift({
    sampleKeys: ['k', 'k', 'k', 'k', 'k', 'k'],
    cells: base.map((_, c) => ({ key: `c${c}`, perRun: perRun(c, c === 2 ? 1.4 : 1) })),
  });
  t.is(drift.factorCells, 4);
  t.true(Math.abs(Math.exp(drift.factors[3]! - drift.factors[2]!) - 1.15 / 0.99) < 0.02);
  t.deepEqual(
    [...drift.cellChanges].filter(([, c]) => c.length).map(([k, c]) => [k, c.map((x) => x.run)]),
    [['c2', [4]]],
  );
});

test('with fewer than 3 cells there is no shared factor: a cell that moved alone is a cell change (made-up runs)', (t) => {
  const drift = runDrift({
    sampleKeys: [null, null, null, null],
    cells: [
      {
        key: 'a',
        perRun: [
          [100, 101, 99],
          [100, 102, 98],
          [150, 151, 149],
          [150, 149, 151],
        ],
      },
      {
        key: 'b',
        perRun: [
          [50, 51, 49],
          [50, 50, 50],
          [50, 51, 49],
          [50, 49, 51],
        ],
      },
    ],
  });
  t.is(drift.factorCells, 0);
  t.deepEqual(drift.factors, [0, 0, 0, 0]);
  t.deepEqual(drift.shifts, []);
  t.is(drift.cellChanges.get('a')!.length, 1);
  t.is(drift.cellChanges.get('b')!.length, 0);
});
