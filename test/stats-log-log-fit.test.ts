import test from 'ava';
import { logLogFit } from '../harness/stats/log-log-fit.js';
import { seededRandom } from '../harness/stats/seeded-random.js';

/** Times t = c·size^b with multiplicative noise of ±10% (seeded), 5 per size. */
function generated(b: number, seed: string): Map<number, number[]> {
  const random = seededRandom(seed);
  const out = new Map<number, number[]>();
  for (const size of [100, 300, 1000, 2000])
    out.set(
      size,
      Array.from({ length: 5 }, () => 0.02 * size ** b * (0.9 + 0.2 * random())),
    );
  return out;
}

const opts = { resamples: 1000, confidence: 0.95, seed: 'fit-test' };

for (const b of [1, 0, 0.5]) {
  test(`the interval of the fitted exponent holds the exponent ${b} the times were generated with`, (t) => {
    const fit = logLogFit(generated(b, `gen-${b}`), opts)!;
    t.true(fit.low <= b && b <= fit.high, `b=${b}: fitted ${fit.slope} [${fit.low}, ${fit.high}]`);
    t.true(fit.low <= fit.slope && fit.slope <= fit.high);
  });
}

test('the exponents of a linear and a constant growth have disjoint intervals', (t) => {
  const linear = logLogFit(generated(1, 'a'), opts)!;
  const flat = logLogFit(generated(0, 'b'), opts)!;
  t.true(flat.high < linear.low);
});

test('one size gives no fit', (t) => {
  t.is(logLogFit(new Map([[100, [1, 2, 3]]]), opts), null);
});
