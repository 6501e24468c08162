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

test('a step the data cannot place between two adjacent runs is placed where the inputs changed (made-up levels)', (t) => {
  // 100 100 120 130 130 130 against a between-run sd of 0.08: the split explaining most is before run 3,
  // a split before run 4 is significant too, and 100 → 120 alone is not
  const wide = (): Spread => ({ sd: 0.08, df: KNOWN_DF, source: 'host-kind', runs: [] });
  const levels = [100, 100, 120, 130, 130, 130];
  t.deepEqual(
    levelSteps(series(levels), wide, 5).map((s) => s.run),
    [3],
  );
  t.deepEqual(
    levelSteps({ ...series(levels), inputChanges: [4] }, wide, 5).map((s) => s.run),
    [4],
  );
  // an input change that is not next to the step does not move it
  t.deepEqual(
    levelSteps({ ...series(levels), inputChanges: [6] }, wide, 5).map((s) => s.run),
    [3],
  );
  // nor one where the step is not significant
  t.deepEqual(
    levelSteps({ ...series([100, 100, 100, 100, 130, 130]), inputChanges: [6] }, wide, 5).map((s) => s.run),
    [5],
  );
});

test('the residual spread of replicate runs is scaled by C / (C − 1), its degrees of freedom by (C − 1) / C, for the shared factor taken out of C cells (made-up runs)', (t) => {
  const perRun = (cell: number): number[][] =>
    [1, 1.02, 0.98, 1, 1.01, 0.99].map((f, r) => [(100 + 50 * cell) * f * (cell === 0 && r >= 3 ? 1.4 : 1) * (1 + 0.01 * (((cell * 7 + r * 3) % 5) - 2))]);
  const cells = [0, 1, 2, 3].map((c) => ({ key: `c${c}`, perRun: perRun(c) }));
  const d = runDrift({ sampleKeys: ['k', 'k', 'k', 'k', 'k', 'k'], cells });
  t.is(d.factorCells, 4);
  const [change] = d.cellChanges.get('c0')!;
  t.is(change!.run, 4);
  const residual = cells.map((c) => c.perRun.map((v, r) => Math.log(v[0]!) - d.factors[r]!));
  const pooled = pooledSpread(residual.flatMap((l) => [l.slice(0, 3), l.slice(3)]))!;
  t.is(pooled.df, 16);
  t.true(Math.abs(change!.spread.sd - pooled.sd * Math.sqrt(4 / 3)) < 1e-12, `${change!.spread.sd} against ${pooled.sd}`);
  t.true(Math.abs(change!.spread.df - 12) < 1e-12);
});

test('a step between two runs whose inputs did not change is judged on the runs of their block alone, not on runs across other input changes (made-up levels)', (t) => {
  // a cell that rises over several input changes; runs 2 and 3 are replicates (no input change at run 3)
  const known = (): Spread => ({ sd: 0.03, df: KNOWN_DF, source: 'host-kind', runs: [] });
  const levels = series([100, 102, 109, 111, 113, 114]);
  // without knowing where the inputs changed, {1, 2} against {3 … 6} is the step that explains most
  t.deepEqual(
    levelSteps(levels, known, 30).map((s) => s.run),
    [3],
  );
  // knowing them, 102 → 109 between replicates is within the between-run sd; the rise is placed where an input changed
  const steps = levelSteps({ ...levels, inputChanges: [2, 4, 5, 6] }, known, 30);
  t.false(
    steps.some((s) => s.run === 3),
    JSON.stringify(steps.map((s) => s.run)),
  );
  // a step between replicates large enough for their block is still found there
  t.deepEqual(
    levelSteps({ ...series([100, 100, 100, 140, 140, 140]), inputChanges: [] }, known, 30).map((s) => s.run),
    [4],
  );
});
