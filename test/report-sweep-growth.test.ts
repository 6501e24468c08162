// A sweep's growth per level unit (report.sweep, made-up cells; the subject is
// our own arithmetic): each session's least-squares slope of its cell P50s on
// the levels, then Student's t over the sessions, agree with NumPy's polyfit
// and SciPy's t quantile on the same numbers.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import type { CellStatistics } from '../harness/analysis/analysis-result.js';
import { leastSquaresSlope, sweepGrowth } from '../harness/report/sweep-growth.js';

const levels = { 'heap-8mib': 8, 'heap-64mib': 64, 'heap-256mib': 256 };
// per session, the restore arm's cold P50 at 8, 64 and 256 MiB (made up)
const perSession = [
  [216, 250, 374],
  [220, 246, 380],
  [210, 255, 366],
];
const cell = (cohort: string, i: number): CellStatistics =>
  ({
    cohort,
    path: 'restore',
    state: 'cold',
    metric: 'ready',
    p50Ms: perSession[1]![i]!,
    sessions: perSession.map((s, k) => ({ session: k + 1, n: 6, p50Ms: s[i]! })),
  }) as unknown as CellStatistics;

test('the growth per MiB is the mean of the sessions’ least-squares slopes with a t interval, as NumPy and SciPy compute it (made-up cells)', (t) => {
  const cells = Object.keys(levels).map((u, i) => cell(u, i));
  const g = sweepGrowth(cells, { levels, name: 'heap', unit: 'MiB' }, 0.95);
  t.deepEqual(g.levels, [8, 64, 256]);
  t.is(g.rows.length, 1);
  const row = g.rows[0]!;
  t.deepEqual(row.p50Ms, [220, 246, 380]);
  const ref = JSON.parse(
    execFileSync(
      '/usr/bin/python3',
      [
        '-c',
        [
          'import json, numpy as np',
          'from scipy import stats',
          'x = [8, 64, 256]',
          `ys = ${JSON.stringify(perSession)}`,
          'b = [np.polyfit(x, y, 1)[0] for y in ys]',
          'm = np.mean(b); h = stats.t.ppf(0.975, len(b) - 1) * np.std(b, ddof=1) / np.sqrt(len(b))',
          'print(json.dumps([m, m - h, m + h]))',
        ].join('\n'),
      ],
      { encoding: 'utf8' },
    ),
  ) as number[];
  t.true(Math.abs(row.slope!.value - ref[0]!) < 1e-9, `${row.slope!.value} vs ${ref[0]}`);
  t.true(Math.abs(row.slope!.low! - ref[1]!) < 1e-6, `${row.slope!.low} vs ${ref[1]}`);
  t.true(Math.abs(row.slope!.high! - ref[2]!) < 1e-6, `${row.slope!.high} vs ${ref[2]}`);
});

test('a slope needs two distinct levels', (t) => {
  t.is(leastSquaresSlope([8], [1]), null);
  t.is(leastSquaresSlope([8, 8], [1, 2]), null);
  t.is(leastSquaresSlope([0, 2], [1, 5]), 2);
});
