import test from 'ava';
import { referenceRatioOfMedians } from './helpers/reference-bootstrap.js';
import { ratioOfMedians } from '../harness/stats/ratio-of-medians.js';
import { seededRandom } from '../harness/stats/seeded-random.js';

function madeUpGroup(seed: string, n: number, level: number, grid: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => Math.round((level * Math.exp(0.3 * (random() - 0.5))) / grid) * grid);
}

for (const [n, m, grid] of [
  [1, 1, 1],
  [2, 7, 1],
  [51, 40, 0.001],
  [300, 301, 10],
] as const) {
  test(`ratioOfMedians gives the numbers of the plain reference bootstrap (${n} over ${m} values, grid ${grid}, made-up data)`, (t) => {
    const num = madeUpGroup(`num${n}`, n, 220, grid);
    const den = madeUpGroup(`den${m}`, m, 200, grid);
    const seed = `ratio|${n}|${m}`;
    const r = ratioOfMedians(num, den, { resamples: 2000, confidence: 0.95, seed });
    t.deepEqual({ ratio: r!.ratio, low: r!.low, high: r!.high }, referenceRatioOfMedians(num, den, 2000, 0.95, seed));
  });
}
