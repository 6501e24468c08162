// The rule for "detected", as one function: a difference is detected when its
// two-level bootstrap interval (two-level-bootstrap.ts) excludes 0 and, with
// K >= 3 sessions, its between-session Student t interval
// (session-t-interval.ts) excludes 0 as well. Written once here and applied
// by the one comparison statistic (paired-comparison.ts), which every
// experiment's record and the calibration (coverage-simulation.ts,
// aa-calibration.ts) go through.
import type { SessionInterval } from './session-t-interval.js';
import type { TwoLevelResult } from './two-level-bootstrap.js';

/** The rule on two intervals already computed. */
export function isDetected(bootstrap: Pick<TwoLevelResult, 'observed' | 'containsZero'>, between: Pick<SessionInterval, 'containsZero'> | null): boolean {
  return bootstrap.observed !== null && !bootstrap.containsZero && !(between?.containsZero ?? false);
}
