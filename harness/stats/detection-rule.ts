// The rule for "detected", as one function: a difference is detected when its
// two-level bootstrap interval (two-level-bootstrap.ts) excludes 0 and, with
// K >= 3 sessions, its between-session Student t interval
// (session-t-interval.ts) excludes 0 as well. This is the rule of
// harness/analysis/analyze-samples.ts (`detected`), written once here so that
// the calibration (coverage-simulation.ts, aa-calibration.ts) tests the
// published rule through the project's own interval functions.
import type { BootstrapOptions } from './paired-bootstrap.js';
import { sessionTInterval, type SessionInterval } from './session-t-interval.js';
import { twoLevelBootstrap, type PairedSession, type TwoLevelResult } from './two-level-bootstrap.js';

export interface RuleOutcome {
  bootstrap: TwoLevelResult;
  /** Null with fewer than 3 sessions. */
  between: SessionInterval | null;
  detected: boolean;
}

/** The rule on two intervals already computed. */
export function isDetected(bootstrap: Pick<TwoLevelResult, 'observed' | 'containsZero'>, between: Pick<SessionInterval, 'containsZero'> | null): boolean {
  return bootstrap.observed !== null && !bootstrap.containsZero && !(between?.containsZero ?? false);
}

/** Both intervals of one difference and the rule's verdict. */
export function applyDetectionRule(sessions: readonly PairedSession[], options: BootstrapOptions): RuleOutcome {
  const bootstrap = twoLevelBootstrap(sessions, options);
  const between = sessionTInterval(
    bootstrap.perSession.map((s) => s.observed),
    options.confidence,
  );
  return { bootstrap, between, detected: isDetected(bootstrap, between) };
}
