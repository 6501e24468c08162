import test from 'ava';
import { rerunInterval } from '../harness/stats/rerun-interval.js';

const base = { observedMs: 100, lowMs: 80, highMs: 120, confidence: 0.95, aMs: 300, bMs: 200 };
const z = 1.959963984540054;

test('with no between-run variation the rerun interval is the interval widened by the square root of 2', (t) => {
  const r = rerunInterval({ ...base, runLogVariance: 0, ratioRunLogVariance: 0 })!;
  t.true(Math.abs(r.highMs - 100 - 20 * Math.SQRT2) < 1e-9, `${r.highMs}`);
  t.is(r.betweenRunShare, 0);
});

test('a factor common to both cells moves the difference by the log variance times the squared difference', (t) => {
  const r = rerunInterval({ ...base, runLogVariance: 0.01, ratioRunLogVariance: 0 })!;
  const expected = z * Math.sqrt(2 * (20 / z) ** 2 + 2 * 0.01 * 100 ** 2);
  t.true(Math.abs(r.highMs - 100 - expected) < 1e-6, `${r.highMs - 100} vs ${expected}`);
  t.true(Math.abs(r.lowMs - 100 + expected) < 1e-6);
});

test('independent cell offsets (ratio variance twice the cell variance) move it by the sum of the squared medians', (t) => {
  const v = 0.01;
  const r = rerunInterval({ ...base, runLogVariance: v, ratioRunLogVariance: 2 * v })!;
  const expected = z * Math.sqrt(2 * (20 / z) ** 2 + 2 * v * (300 ** 2 + 200 ** 2));
  t.true(Math.abs(r.highMs - 100 - expected) < 1e-6, `${r.highMs - 100} vs ${expected}`);
});

test('a difference without an interval has no rerun interval', (t) => {
  t.is(rerunInterval({ ...base, lowMs: null, runLogVariance: 0.01, ratioRunLogVariance: 0.001 }), null);
});
