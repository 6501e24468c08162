// Pure: the one comparison statistic of every experiment. Sessions of paired
// rounds (two-level-bootstrap.ts pairSessions) in, one ComparisonResult out:
// the observed difference (a - b) or ratio (a / b) of medians, its two-level
// bootstrap interval (sessions, then rounds), its between-session Student t
// interval (K >= 3 sessions; for a ratio over the logs of the per-session
// ratios, so it is a ratio interval too), the direction in each session, and
// the verdict as named findings:
//   detected: the two-level interval excludes the null value (0, or 1 for a
//     ratio) and, with K >= 3 sessions, so does the between-session interval;
//   sessionsDisagreeInSize: the two-level interval excludes it but the
//     between-session interval does not (K >= 3);
//   direction: 'lower' (a below b) or 'higher', when the direction is
//     established: detected, or the two-level interval excludes the null
//     value and every session points the same way, however much their sizes
//     differ; null otherwise. Sessions that agree in direction but not in
//     size make the size uncertain, not the direction (issue 33: every one of
//     21 paired rounds faster, and "dropped" because one session improved more);
//   sizeUncertain: the direction is established but the sessions disagree in
//     size, so the magnitude is a range over sessions, not an interval.
import type { BootstrapOptions } from './paired-bootstrap.js';
import { sessionTInterval } from './session-t-interval.js';
import { isDetected } from './detection-rule.js';
import { twoLevelBootstrap, type PairedSession, type PairedStatistic, type TwoLevelResult } from './two-level-bootstrap.js';

/** The two-level result (its interval, sessions and directions) with the between-session interval and the named findings. */
export interface ComparisonResult extends Omit<TwoLevelResult, 'containsZero'> {
  kind: PairedStatistic;
  /** The between-session interval; null with K < 3. */
  sessionLow: number | null;
  sessionHigh: number | null;
  findings: { detected: boolean; sessionsDisagreeInSize: boolean; direction: 'lower' | 'higher' | null; sizeUncertain: boolean };
}

export function pairedComparison(sessions: readonly PairedSession[], kind: PairedStatistic, options: BootstrapOptions): ComparisonResult {
  const r = twoLevelBootstrap(sessions, options, kind);
  const perSession = r.perSession.map((s) => s.observed);
  const usable = kind === 'ratio' ? perSession.every((v) => v > 0) : true;
  const between = usable ? sessionTInterval(kind === 'ratio' ? perSession.map(Math.log) : perSession, options.confidence) : null;
  const back = (v: number): number => (kind === 'ratio' ? Math.exp(v) : v);
  return {
    kind,
    sessions: r.sessions,
    rounds: r.rounds,
    observed: r.observed,
    low: r.low,
    high: r.high,
    resamples: r.resamples,
    confidence: r.confidence,
    perSession: r.perSession,
    sameDirection: r.sameDirection,
    betweenSessionEstimated: r.betweenSessionEstimated,
    sessionLow: between ? back(between.low) : null,
    sessionHigh: between ? back(between.high) : null,
    findings: comparisonFindings(kind, r, between),
  };
}

/** The named findings of a comparison from its two intervals and its sessions' directions. */
function comparisonFindings(
  kind: PairedStatistic,
  r: { observed: number | null; containsZero: boolean; sameDirection: number; sessions: number },
  between: { containsZero: boolean } | null,
): ComparisonResult['findings'] {
  // containsZero is "contains the null value": 1 for the ratio, 0 for its logs in the between-session interval.
  const detected = isDetected(r, between);
  const twoLevelExcludes = r.observed !== null && !r.containsZero;
  const sessionsDisagreeInSize = twoLevelExcludes && between !== null && between.containsZero;
  const established = detected || (sessionsDisagreeInSize && r.sameDirection === r.sessions);
  const below = r.observed !== null && r.observed < (kind === 'ratio' ? 1 : 0);
  return {
    detected,
    sessionsDisagreeInSize,
    direction: established ? (below ? 'lower' : 'higher') : null,
    sizeUncertain: established && sessionsDisagreeInSize,
  };
}
