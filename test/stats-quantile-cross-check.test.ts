// Our type-7 quantiles against simple-statistics, an independent
// implementation: the median, and every quantile at a probability where an
// order statistic is hit exactly (p = k/(n-1)), where all definitions agree.
import test from 'ava';
import * as ss from 'simple-statistics';
import { median, quantileSorted } from '../harness/stats/quantile.js';
import { seededRandom } from '../harness/stats/seeded-random.js';

test('medians and order-statistic quantiles equal those of simple-statistics on 200 random samples', (t) => {
  const rnd = seededRandom('cross-check');
  for (let s = 0; s < 200; s++) {
    const n = 2 + Math.floor(rnd() * 60);
    const values = Array.from({ length: n }, () => Math.exp(rnd() * 8));
    const sorted = [...values].sort((a, b) => a - b);
    t.is(median(values), ss.median(values));
    for (let k = 0; k < n; k++) t.is(quantileSorted(sorted, k / (n - 1)), ss.quantileSorted(sorted, k / (n - 1)));
  }
});
