// The smallest true difference the rule for "detected" would find in 80% of
// runs (or another power) with K sessions of r rounds: a planning figure for
// the next-run plan (next-run-plan.ts), checked against the coverage
// simulation (coverage-simulation.ts) in test/stats-power.test.ts.
//
// With K >= 3 the binding part of the rule is the between-session t interval
// over the K per-session differences of medians. A per-session difference
// varies by the session component of the difference (sessionVar) and by its
// rounds: the median of r values of a normal varies about pi/2 times as much
// as their mean, so roundVar * pi / (2 r). The usual approximation for a
// one-sample t test then gives
//   delta = (t_{(1+c)/2, K-1} + t_{power, K-1}) * sqrt((sessionVar + pi roundVar / (2 r)) / K).
// Null with K < 3: the between-session spread is not estimated there.
import { minSessionsForInterval } from './session-t-interval.js';
import { studentTQuantile } from './student-t.js';

export interface DifferenceVariances {
  /** Between-session variance of the per-round difference a - b. */
  sessionVar: number;
  /** Between-round (within-session) variance of the per-round difference a - b. */
  roundVar: number;
}

export function smallestDetectableDifference(v: DifferenceVariances, sessions: number, rounds: number, confidence: number, power = 0.8): number | null {
  if (sessions < minSessionsForInterval || rounds < 1) return null;
  const df = sessions - 1;
  const t = studentTQuantile((1 + confidence) / 2, df) + studentTQuantile(power, df);
  return t * Math.sqrt((v.sessionVar + (Math.PI * v.roundVar) / (2 * rounds)) / sessions);
}
