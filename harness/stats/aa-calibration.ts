// A/A calibration: the rule for "detected" (detection-rule.ts) applied to
// runs in which a and b are the same path under two names, so that every
// detection is a false positive. Per run the verdict on the first K sessions
// (K = 1: today's one-session analysis; K = 3: the default design), and over
// runs the false-positive rate with its Clopper-Pearson interval.
import { clopperPearson, type ProportionInterval } from './clopper-pearson.js';
import { pairedComparison } from './paired-comparison.js';
import type { BootstrapOptions } from './paired-bootstrap.js';
import { pairSessions, type SessionRow } from './two-level-bootstrap.js';

/** The verdict on the rows of the first `sessions` sessions (by session number) of one run. */
export function aaDetected(rows: readonly SessionRow[], a: string, b: string, sessions: number, options: BootstrapOptions): boolean {
  const paired = pairSessions(rows, a, b).slice(0, sessions);
  return pairedComparison(paired, 'difference', options).findings.detected;
}

export interface AaRate extends ProportionInterval {
  sessions: number;
}

/** False-positive rate over runs: the share of verdicts that are `true`. */
export function aaRate(verdicts: readonly boolean[], sessions: number, confidence = 0.95): AaRate {
  return { sessions, ...clopperPearson(verdicts.filter(Boolean).length, verdicts.length, confidence) };
}
