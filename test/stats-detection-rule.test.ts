import test from 'ava';
import { applyDetectionRule, isDetected } from '../harness/stats/detection-rule.js';
import { sessionTInterval } from '../harness/stats/session-t-interval.js';
import { twoLevelBootstrap, type PairedSession } from '../harness/stats/two-level-bootstrap.js';

test('a difference is detected only when the bootstrap interval and, with 3 or more sessions, the t interval both exclude 0', (t) => {
  t.true(isDetected({ observed: 1, containsZero: false }, null));
  t.true(isDetected({ observed: 1, containsZero: false }, { containsZero: false }));
  t.false(isDetected({ observed: 1, containsZero: false }, { containsZero: true }));
  t.false(isDetected({ observed: 1, containsZero: true }, { containsZero: false }));
  t.false(isDetected({ observed: null, containsZero: false }, null));
});

test('applyDetectionRule reports the project intervals it decided on', (t) => {
  // Per-session differences 2, 4 and 30: the bootstrap excludes 0, the t interval over 3 sessions does not.
  const session = (s: number, shift: number): PairedSession => ({
    session: s,
    rounds: [0, 1, 2, 3, 4].map((i) => ({ a: [10 + i + shift], b: [10 + i] })),
  });
  const data = [session(1, 2), session(2, 4), session(3, 30)];
  const options = { resamples: 500, confidence: 0.95, seed: 'rule' };
  const r = applyDetectionRule(data, options);
  t.deepEqual(r.bootstrap, twoLevelBootstrap(data, options));
  t.deepEqual(r.between, sessionTInterval([2, 4, 30], 0.95));
  t.false(r.bootstrap.containsZero);
  t.true(r.between!.containsZero);
  t.false(r.detected);
});
