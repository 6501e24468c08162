// Our own fitting logic on made-up times (no engine involved): the straight
// line t = floor + cost·n recovers a floor and a cost it was made from, and
// on a cost with a floor it misses less on the log scale than a power law.
import test from 'ava';
import { floorCostFit, logResidualRms } from '../harness/stats/floor-cost-fit.js';
import { logLogFit } from '../harness/stats/log-log-fit.js';

const opts = { resamples: 400, confidence: 0.95, seed: 'floor-cost' };
const sizes = [100, 1000, 10000, 100000];

/** t = 500 ms + 0.028 ms per file, with a fixed ±3% spread around it (made up). */
function madeUp(): Map<number, number[]> {
  const spread = [0.97, 0.99, 1.0, 1.01, 1.03, 0.98];
  return new Map(sizes.map((n) => [n, spread.map((f) => (500 + 0.028 * n) * f)]));
}

test('made-up times: the line recovers the floor and the cost, and its intervals hold them', (t) => {
  const fit = floorCostFit(madeUp(), opts)!;
  t.true(Math.abs(fit.floor - 500) < 25, `floor ${fit.floor}`);
  t.true(Math.abs(fit.cost - 0.028) < 0.001, `cost ${fit.cost}`);
  t.true(fit.floorLow <= 500 && 500 <= fit.floorHigh, `${fit.floorLow}–${fit.floorHigh}`);
  t.true(fit.costLow <= 0.028 && 0.028 <= fit.costHigh, `${fit.costLow}–${fit.costHigh}`);
  t.true(fit.costLow > 0, 'a real cost per file is told from none');
  t.is(fit.observations, 24);
  t.is(fit.sizes, 4);
});

test('made-up times with a floor: the line misses less on the log scale than the power law, whose exponent is small', (t) => {
  const data = madeUp();
  const line = floorCostFit(data, opts)!;
  const power = logLogFit(data, opts)!;
  const lineRms = logResidualRms(data, (n) => line.floor + line.cost * n)!;
  const powerRms = logResidualRms(data, (n) => power.scale * n ** power.slope)!;
  t.true(lineRms < powerRms, `line ${lineRms} vs power ${powerRms}`);
  t.true(power.high < 1, `a floor makes the power law's exponent small: ${power.slope}`);
});

test("the last published run's naive incremental P50s fit about 0.50 s + 28 µs per file", (t) => {
  const data = new Map([
    [100, [625]],
    [1000, [450]],
    [10000, [737]],
    [100000, [3302]],
  ]);
  const fit = floorCostFit(data, { ...opts, resamples: 10 })!;
  t.true(Math.abs(fit.floor - 500) < 30, `floor ${fit.floor}`);
  t.true(Math.abs(fit.cost * 1000 - 28) < 1, `cost ${fit.cost * 1000} µs`);
});

test('a line that is not positive at an observed size has no log residual', (t) => {
  t.is(
    logResidualRms(new Map([[1, [5]]]), () => -1),
    null,
  );
  t.is(floorCostFit(new Map([[1, [5]]]), opts), null, 'one size gives no line');
});
