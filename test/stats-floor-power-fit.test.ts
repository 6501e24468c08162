// The floor + power growth fit t = f + c·n^k: its exponent against SciPy's
// least_squares on the same relative residuals, and the rule that names a
// shape only when three or more sizes lie above the floor (made-up timings
// drawn from seeded generators whose shape is known by construction).
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { floorPowerFit, growthShape } from '../harness/stats/floor-power-fit.js';
import { seededRandom } from '../harness/stats/seeded-random.js';

const PYTHON = '/usr/bin/python3';
const OPTS = { resamples: 400, confidence: 0.95, seed: 'floor-power' };

/** Six observations per size of floor + c·n^k, each times a log-normal noise of the given sd. */
function madeUp(sizes: readonly number[], floor: number, c: number, k: number, sd: number, seed: string): Map<number, number[]> {
  const random = seededRandom(seed);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return new Map(sizes.map((n) => [n, Array.from({ length: 6 }, () => (floor + c * n ** k) * Math.exp(sd * normal()))]));
}

const sweep = [1000, 3000, 10_000, 30_000, 100_000, 300_000];

test('the fitted exponent and its residual agree with SciPy least_squares on the same relative residuals', (t) => {
  const data = madeUp(sweep, 490, 0.002, 1.3, 0.05, 'scipy');
  const fit = floorPowerFit(data, OPTS)!;
  const points = [...data].flatMap(([n, ys]) => ys.map((y) => [n, y]));
  const ref = JSON.parse(
    execFileSync(
      PYTHON,
      [
        '-c',
        `
import json, sys
import numpy as np
from scipy.optimize import least_squares
p = np.array(json.load(sys.stdin)); n, y = p[:, 0], p[:, 1]
best = None
for k0 in (0.5, 1.0, 1.5, 2.0):
    r = least_squares(lambda q: (y - q[0] - q[1] * n ** q[2]) / y, x0=[y.min(), (y.max() - y.min()) / n.max() ** k0, k0], bounds=([-np.inf, -np.inf, 0.01], [np.inf, np.inf, 3]))
    if best is None or r.cost < best.cost: best = r
print(json.dumps({"k": best.x[2], "rms": float(np.sqrt(np.mean(best.fun ** 2)))}))
`,
      ],
      { input: JSON.stringify(points) },
    ).toString(),
  ) as { k: number; rms: number };
  t.true(Math.abs(fit.exponent - ref.k) <= 0.015, `ours ${fit.exponent}, SciPy ${ref.k}`);
  t.true(fit.relativeRms <= ref.rms * 1.001 + 1e-9, `ours ${fit.relativeRms}, SciPy ${ref.rms}`);
  t.true(fit.exponentLow <= fit.exponent && fit.exponent <= fit.exponentHigh);
});

test('a flat floor with one size above it names no shape: the sizes cannot tell linear from quadratic', (t) => {
  const data = madeUp([100, 1000, 3000, 10_000, 100_000], 490, 1e-7, 2, 0.05, 'flat');
  const fit = floorPowerFit(data, OPTS)!;
  t.true(fit.sizesAboveFloor < 3, `${fit.sizesAboveFloor} sizes above the floor`);
  t.false(fit.identified);
  t.is(growthShape(fit), 'not-identified');
});

test('a linear cost seen above the floor at most sizes is named linear; a quadratic one quadratic', (t) => {
  const linear = floorPowerFit(madeUp(sweep, 50, 0.01, 1, 0.03, 'linear'), OPTS)!;
  t.true(linear.sizesAboveFloor >= 3);
  t.is(growthShape(linear), 'linear', `k ${linear.exponent} [${linear.exponentLow}, ${linear.exponentHigh}]`);
  const quadratic = floorPowerFit(madeUp([1000, 2000, 4000, 8000, 16_000, 32_000], 50, 1e-6, 2, 0.03, 'quadratic'), OPTS)!;
  t.is(growthShape(quadratic), 'quadratic', `k ${quadratic.exponent} [${quadratic.exponentLow}, ${quadratic.exponentHigh}]`);
});

test('the fit is reproducible from its seed', (t) => {
  const data = madeUp(sweep, 490, 0.002, 1.3, 0.05, 'seed');
  t.deepEqual(floorPowerFit(data, OPTS), floorPowerFit(data, OPTS));
});
