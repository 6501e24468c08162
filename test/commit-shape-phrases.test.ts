// The commit-diff shape sentences follow the floor + c·n^k fit's named
// finding (made-up fits: a test of our own wording rules).
import test from 'ava';
import type { CommitAnalysis, Growth } from '../harness/commit/commit-analysis.js';
import { quadraticClaimSentence, shapeSentence } from '../harness/commit/commit-phrases.js';
import type { FloorPowerFit } from '../harness/stats/floor-power-fit.js';

const fit = (o: Partial<FloorPowerFit>): FloorPowerFit => ({
  floor: 490,
  floorLow: 480,
  floorHigh: 500,
  cost: 0.002,
  exponent: 1.1,
  exponentLow: 0.8,
  exponentHigh: 3,
  relativeRms: 0.1,
  sizes: 4,
  sizesAboveFloor: 1,
  identified: false,
  observations: 24,
  resamples: 400,
  confidence: 0.95,
  ...o,
});
const growth = (f: FloorPowerFit): Growth =>
  ({
    dimension: 'file_count',
    fixed: {},
    method: 'naive',
    state: 'incremental',
    fit: null,
    line: null,
    floorPower: f,
    powerLogRms: null,
    lineLogRms: null,
  }) as Growth;
const analysis = (f: FloorPowerFit): CommitAnalysis => ({ growth: [growth(f)] }) as unknown as CommitAnalysis;

test('with one size above the floor the report names no shape and does not test the quadratic claim', (t) => {
  t.regex(shapeSentence(growth(fit({})))!, /only 1 of 4 sizes rises above the floor, too few to tell a linear from a quadratic cost/);
  t.regex(quadraticClaimSentence(analysis(fit({})))!, /^Not tested:/);
  t.notRegex(shapeSentence(growth(fit({})))!, /linear, not quadratic/);
});

test('with three sizes above the floor the interval on k decides: 1 held and 2 excluded is linear and the quadratic claim is not supported', (t) => {
  const linear = fit({ sizesAboveFloor: 3, identified: true, exponent: 1.02, exponentLow: 0.9, exponentHigh: 1.2 });
  t.regex(
    shapeSentence(growth(linear))!,
    /grows linearly above its floor: k = 1\.02 \[0\.90, 1\.20\] \(\d+ of \d+ sizes above the floor\) holds 1 and excludes 2/,
  );
  t.regex(quadraticClaimSentence(analysis(linear))!, /^Not supported:/);
  const both = fit({ sizesAboveFloor: 3, identified: true, exponent: 1.4, exponentLow: 0.9, exponentHigh: 2.2 });
  t.regex(quadraticClaimSentence(analysis(both))!, /^Not decided:/);
  const square = fit({ sizesAboveFloor: 4, identified: true, exponent: 2.0, exponentLow: 1.8, exponentHigh: 2.2 });
  t.regex(quadraticClaimSentence(analysis(square))!, /^Supported:/);
});
