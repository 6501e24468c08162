import test from 'ava';
import { join } from 'node:path';
import { publishedProfiles, typicalProfile } from '../bench/published-profile.js';
import { simulateCell } from '../harness/stats/coverage-simulation.js';
import { smallestDetectableDifference } from '../harness/stats/power.js';
import { differenceVariances } from '../harness/stats/simulation-profile.js';
import { studentTQuantile } from '../harness/stats/student-t.js';
import { projectRoot } from './helpers/cli.js';

test('the smallest detectable difference is (t_0.975 + t_0.8) times the standard error of the mean of session differences of medians', (t) => {
  const d = smallestDetectableDifference({ sessionVar: 4, roundVar: 10 }, 5, 20, 0.95, 0.8)!;
  const expected = (studentTQuantile(0.975, 4) + studentTQuantile(0.8, 4)) * Math.sqrt((4 + (Math.PI * 10) / 40) / 5);
  t.true(Math.abs(d - expected) < 1e-12);
});

test('with fewer than 3 sessions no smallest detectable difference is stated', (t) => {
  t.is(smallestDetectableDifference({ sessionVar: 1, roundVar: 1 }, 2, 10, 0.95), null);
});

test('a simulated true difference of the planned size is detected in 60 to 95% of runs (planning figure for 80%)', (t) => {
  const profile = typicalProfile(publishedProfiles(join(projectRoot, 'reports', 'lazy-startup', 'runs', '2026-12-01-25bf80d30cc6')));
  const delta = smallestDetectableDifference(differenceVariances(profile), 5, 10, 0.95)!;
  const cell = simulateCell(
    profile,
    { sessions: 5, rounds: 10, effect: Math.expm1(delta) },
    { experiments: 300, resamples: 1000, confidence: 0.95, seed: 'power' },
  );
  const power = cell.detected / cell.experiments;
  t.true(power >= 0.6 && power <= 0.95, `detected ${cell.detected}/${cell.experiments} at a true ${(100 * Math.expm1(delta)).toFixed(1)}%`);
});
