// The coverage simulation (harness/stats/coverage-simulation.ts): seeded and
// reproducible, and its quick version (the published run's typical variance
// profile, K = 3 x 10 rounds) runs in the suite in well under 30 s.
import test from 'ava';
import { join } from 'node:path';
import { publishedProfiles, typicalProfile } from '../bench/published-profile.js';
import { clopperPearson } from '../harness/stats/clopper-pearson.js';
import { simulateCell, simulateExperiment } from '../harness/stats/coverage-simulation.js';
import { seededRandom } from '../harness/stats/seeded-random.js';
import { varianceComponents } from '../harness/stats/variance-components.js';
import { projectRoot } from './helpers/cli.js';

const profile = typicalProfile(publishedProfiles(join(projectRoot, 'reports', 'lazy-startup', 'runs', '2026-12-01-25bf80d30cc6')));
const quick = { experiments: 200, resamples: 1000, confidence: 0.95, seed: 'suite' };

test('the quick coverage simulation is reproducible from its seed and runs in under 30 s', (t) => {
  const started = Date.now();
  const first = simulateCell(profile, { sessions: 3, rounds: 10, effect: 0.1 }, quick);
  const second = simulateCell(profile, { sessions: 3, rounds: 10, effect: 0.1 }, quick);
  t.true(Date.now() - started < 30_000, `${Date.now() - started} ms`);
  t.deepEqual(first, second);
  t.notDeepEqual(first, simulateCell(profile, { sessions: 3, rounds: 10, effect: 0.1 }, { ...quick, seed: 'other' }));
});

test('simulated data carry the profile: the log values of b recover its session and round variances', (t) => {
  const p = { medianMs: 100, sessionSd: 0.2, roundSd: 0.1, sessionCorr: 0.5, roundCorr: 0 };
  const data = simulateExperiment(p, { sessions: 400, rounds: 10, effect: 0 }, seededRandom('profile'));
  const c = varianceComponents(data.flatMap((s) => s.rounds.map((r, i) => ({ session: s.session, round: i, value: Math.log(r.b[0]!) }))));
  t.true(Math.abs(Math.sqrt(c.betweenVar!) - 0.2) < 0.02, `session sd ${Math.sqrt(c.betweenVar!)}`);
  t.true(Math.abs(Math.sqrt(c.withinVar!) - 0.1) < 0.005, `round sd ${Math.sqrt(c.withinVar!)}`);
});

test('with no session effect the between-session t interval covers the true difference at its nominal 95%', (t) => {
  const p = { ...profile, sessionSd: 0 };
  const cell = simulateCell(p, { sessions: 5, rounds: 10, effect: 0.05 }, { ...quick, experiments: 400 });
  const ci = clopperPearson(cell.tCovers, cell.experiments, 0.999);
  t.true(ci.low <= 0.95 && 0.95 <= ci.high, `${cell.tCovers}/${cell.experiments}`);
});

test('a true difference of 20% of the median is detected more often than one of 2%', (t) => {
  const small = simulateCell(profile, { sessions: 5, rounds: 10, effect: 0.02 }, quick);
  const large = simulateCell(profile, { sessions: 5, rounds: 10, effect: 0.2 }, quick);
  t.true(large.detected > small.detected + quick.experiments / 2, `${small.detected} vs ${large.detected} of ${quick.experiments}`);
});
