// Between-session interval of a difference: Student's t over the K
// per-session differences, K - 1 degrees of freedom.
//
// Why beside the two-level bootstrap: with few sessions the bootstrap
// cannot see the spread between them. Drawing K = 3 sessions with
// replacement gives only 10 distinct multisets, and percentile intervals
// over so few clusters are too narrow (Cameron, Gelbach & Miller, "Bootstrap-
// based improvements for inference with clustered errors", 2008; the
// usual remedy is a t reference with G - 1 degrees of freedom). Measured
// on our own default experiment: shell warm oci-full − lazy had per-session
// differences −2.1, −4.3 and −7.3 ms, a two-level interval [−7.7, −1.8] that
// excludes 0, and was not detected in a fresh-clone reproduction. This
// interval over the three session differences is [−11.1, 1.9].
//
// mean ± t((1+c)/2, K-1) · sd / √K, sd with K - 1 in the denominator.
// Undefined (null) with fewer than 3 sessions: with K = 2 it would rest on
// one degree of freedom, and the report already says that between-session
// uncertainty is not estimated there.
import { studentTQuantile } from './student-t.js';

export interface SessionInterval {
  /** Mean of the per-session differences. */
  mean: number;
  low: number;
  high: number;
  /** K - 1. */
  degreesOfFreedom: number;
  /** True when [low, high] contains 0. */
  containsZero: boolean;
}

export const minSessionsForInterval = 3;

export function sessionTInterval(perSession: readonly number[], confidence: number): SessionInterval | null {
  const k = perSession.length;
  if (k < minSessionsForInterval || !perSession.every(Number.isFinite)) return null;
  const mean = perSession.reduce((s, v) => s + v, 0) / k;
  const variance = perSession.reduce((s, v) => s + (v - mean) ** 2, 0) / (k - 1);
  const half = studentTQuantile((1 + confidence) / 2, k - 1) * Math.sqrt(variance / k);
  const low = mean - half;
  const high = mean + half;
  return { mean, low, high, degreesOfFreedom: k - 1, containsZero: !(low > 0 || high < 0) };
}
