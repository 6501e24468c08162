import test from 'ava';
import { quantile, quantileSorted } from '../harness/stats/quantile.js';
import { summarizeSorted } from '../harness/stats/cell-summary.js';
import { summarizeBytes, relativeReduction } from '../harness/stats/byte-summary.js';
import { dominanceSorted } from '../harness/stats/dominance.js';

test('type-7 quantiles equal hand-computed values', (t) => {
  const xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  // h = (n - 1) p: P50 -> h = 4.5 -> 5 + 0.5 * (6 - 5)
  t.is(quantileSorted(xs, 0.5), 5.5);
  // P95 -> h = 8.55 -> 9 + 0.55 * (10 - 9)
  t.is(Math.round(quantileSorted(xs, 0.95) * 1e9) / 1e9, 9.55);
  // P25 -> h = 2.25 -> 3 + 0.25
  t.is(quantileSorted(xs, 0.25), 3.25);
  t.is(quantileSorted([10, 20, 40], 0.5), 20);
  // n = 4, P95 -> h = 2.85 -> 30 + 0.85 * (70 - 30) = 64
  t.is(Math.round(quantileSorted([10, 20, 30, 70], 0.95) * 1e9) / 1e9, 64);
});

test('a cell summary gives n, P50, P95, min and max, P95 reference-only below the threshold', (t) => {
  const s = summarizeSorted([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 100);
  t.is(s.n, 10);
  t.is(s.p50, 5.5);
  t.is(s.min, 1);
  t.is(s.max, 10);
  t.true(s.p95ReferenceOnly);
  t.false(summarizeSorted([1, 2, 3], 3).p95ReferenceOnly);
});

test('an empty cell has no statistics', (t) => {
  t.deepEqual(summarizeSorted([], 100), { n: 0, p50: null, p95: null, p95ReferenceOnly: true, min: null, max: null });
});

test('byte counts are flagged when not identical within a cell', (t) => {
  t.true(summarizeBytes([5, 5, 5]).identical);
  const s = summarizeBytes([5, 7, 5]);
  t.false(s.identical);
  t.is(s.distinct, 2);
  t.is(relativeReduction(200, 50), 0.75);
  t.is(relativeReduction(0, 50), null);
});

test('dominance holds only when every observation of one path precedes every observation of the other', (t) => {
  t.is(dominanceSorted([1, 2, 3], [4, 5]), 'a-precedes-b');
  t.is(dominanceSorted([4, 5], [1, 2, 3]), 'b-precedes-a');
  t.is(dominanceSorted([1, 4], [3, 5]), 'overlap');
  t.is(dominanceSorted([1, 3], [3, 5]), 'overlap');
  t.is(dominanceSorted([], [3, 5]), 'empty');
});

test('quantile() by selection gives the plain sort and type-7 numbers, ties, zeros and -0 included (made-up values)', (t) => {
  const plain = (xs: number[], p: number): number =>
    quantileSorted(
      [...xs].sort((x, y) => x - y),
      p,
    );
  let s = 7;
  const next = (): number => (s = (s * 16807) % 2147483647) / 2147483647;
  const sets = [
    Array.from({ length: 1001 }, () => Math.round(next() * 50) / 10),
    Array.from({ length: 10 }, () => 0),
    [3, -0, 0, 1],
    [5, Number.NaN, 1],
    [2, Infinity, -Infinity, 1],
    [4],
  ];
  for (const xs of sets)
    for (const p of [0, 0.025, 0.5, 0.95, 0.975, 1]) t.true(Object.is(quantile(xs, p), plain(xs, p)), `${xs.slice(0, 5).join(',')} p=${p}`);
});
