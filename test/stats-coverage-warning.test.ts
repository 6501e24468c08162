import test from 'ava';
import { coverageWarning, type CoverageRow } from '../harness/stats/coverage-warning.js';

const rows: CoverageRow[] = [
  { sessions: 3, rounds: 10, coverage: 0.924, interval: 'two-level bootstrap' },
  { sessions: 3, rounds: 10, coverage: 0.948, interval: 'between-session t' },
  { sessions: 5, rounds: 10, coverage: 0.966, interval: 'two-level bootstrap' },
];

test('a design whose measured coverage is below 93% gets a warning naming the interval and its coverage', (t) => {
  t.is(
    coverageWarning(rows, 3, 10),
    'in simulation with 3 sessions × 10 rounds, the two-level bootstrap interval covered 92.4% of true differences (nominal 95%, warning below 93%)',
  );
});

test('a design covered at 93% or more gets no warning', (t) => {
  t.is(coverageWarning(rows, 5, 10), null);
});

test('an unmeasured design is judged by the nearest measured design at or below it', (t) => {
  t.is(coverageWarning(rows, 4, 15), coverageWarning(rows, 3, 10));
  t.is(coverageWarning(rows, 7, 30), null);
});

test('a design below every measured one is said to be uncalibrated', (t) => {
  t.regex(coverageWarning(rows, 1, 10)!, /below every calibrated design/);
});
