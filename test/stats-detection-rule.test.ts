import test from 'ava';
import { isDetected } from '../harness/stats/detection-rule.js';
import { pairedComparison } from '../harness/stats/paired-comparison.js';
import { sessionTInterval } from '../harness/stats/session-t-interval.js';
import { twoLevelBootstrap, type PairedSession } from '../harness/stats/two-level-bootstrap.js';

test('a difference is detected only when the bootstrap interval and, with 3 or more sessions, the t interval both exclude 0', (t) => {
  t.true(isDetected({ observed: 1, containsZero: false }, null));
  t.true(isDetected({ observed: 1, containsZero: false }, { containsZero: false }));
  t.false(isDetected({ observed: 1, containsZero: false }, { containsZero: true }));
  t.false(isDetected({ observed: 1, containsZero: true }, { containsZero: false }));
  t.false(isDetected({ observed: null, containsZero: false }, null));
});

test('the paired comparison decides on the project intervals it reports', (t) => {
  // Per-session differences 2, 4 and 30: the bootstrap excludes 0, the t interval over 3 sessions does not.
  const session = (s: number, shift: number): PairedSession => ({
    session: s,
    rounds: [0, 1, 2, 3, 4].map((i) => ({ a: [10 + i + shift], b: [10 + i] })),
  });
  const data = [session(1, 2), session(2, 4), session(3, 30)];
  const options = { resamples: 500, confidence: 0.95, seed: 'rule' };
  const r = pairedComparison(data, 'difference', options);
  const bootstrap = twoLevelBootstrap(data, options);
  const between = sessionTInterval([2, 4, 30], 0.95)!;
  t.deepEqual([r.observed, r.low, r.high], [bootstrap.observed, bootstrap.low, bootstrap.high]);
  t.deepEqual([r.sessionLow, r.sessionHigh], [between.low, between.high]);
  t.false(bootstrap.containsZero);
  t.true(between.containsZero);
  t.false(r.findings.detected);
  t.true(r.findings.sessionsDisagreeInSize);
});
