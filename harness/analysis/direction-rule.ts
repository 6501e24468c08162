// Pure: the one rule that gives a comparison its direction, in every
// experiment (docs/VERDICTS.md, "One comparison"). Three outcomes:
//   detected        the two-level interval excludes the null value (0, or 1
//                   for a ratio) and, with 3 or more sessions, so does the
//                   between-session t interval (stats/detection-rule.ts,
//                   unchanged);
//   size uncertain  not detected, but the direction is established by
//                   replication: with 3 or more sessions, the two-level
//                   interval excludes the null value and every session, on
//                   its own rounds alone, excludes it on the same side (each
//                   session's own two-level interval, K = 1, which is the
//                   paired-round bootstrap). The sessions then agree on the
//                   direction and disagree on the size: the magnitude is a
//                   range over sessions, not an interval;
//   not established neither: undecided (or equivalent, or dropped, as each
//                   experiment words it).
// Why replication and not "every session's point estimate has the same
// sign": with 3 sessions whose a - b varies between sessions around 0, the
// two-level interval excludes 0 and the three session medians share a sign
// in up to 9.9% of A/A experiments (the session-heavy profile of
// reports/calibration/coverage.md, 3 x 20), twice the rate of "detected"
// (4.5%); asking each session's own interval to exclude 0 keeps it at
// 4.5%, within 0.2 points of "detected" in every profile and design tried,
// while it still finds an effect whose size differs between sessions
// (docs/VERDICTS.md gives the table and how it was measured).
//
// The rule reads only numbers that differences.csv and ratios.csv publish
// (value, low, high, session_low, session_high, sessions,
// sessions_alone_excluding), so a test can check a published report's words
// against its CSVs with this same function.
import type { BootstrapOptions } from '../stats/paired-bootstrap.js';
import { pairedComparison, type ComparisonResult } from '../stats/paired-comparison.js';
import type { PairedSession, PairedStatistic } from '../stats/two-level-bootstrap.js';

/** Fewest sessions for a direction without detection: fewer cannot replicate (and have no between-session interval). */
export const MIN_REPLICATING_SESSIONS = 3;

/** The numbers the rule reads, as differences.csv publishes them. */
export interface DirectionEvidence {
  kind: PairedStatistic;
  observed: number | null;
  low: number | null;
  high: number | null;
  /** Between-session t interval; null with fewer than 3 sessions. */
  sessionLow: number | null;
  sessionHigh: number | null;
  sessions: number;
  /** Sessions whose own interval (their rounds alone) excludes the null value on the side of `observed`. */
  sessionsAloneExcluding: number;
}

export type DirectionOutcome = 'detected' | 'size uncertain' | 'not established';

export interface DirectionJudgement {
  outcome: DirectionOutcome;
  /** 'lower' (a below b) or 'higher' when the outcome is detected or size uncertain; else null. */
  direction: 'lower' | 'higher' | null;
}

const excludes = (low: number | null, high: number | null, nullValue: number): boolean =>
  low !== null && high !== null && (low > nullValue || high < nullValue);

/** The rule on published numbers. */
export function judgeDirection(e: DirectionEvidence): DirectionJudgement {
  const nullValue = e.kind === 'ratio' ? 1 : 0;
  if (e.observed === null || !excludes(e.low, e.high, nullValue)) return { outcome: 'not established', direction: null };
  const side = e.observed < nullValue ? 'lower' : 'higher';
  const hasBetween = e.sessionLow !== null && e.sessionHigh !== null;
  if (!hasBetween || excludes(e.sessionLow, e.sessionHigh, nullValue)) return { outcome: 'detected', direction: side };
  if (e.sessions >= MIN_REPLICATING_SESSIONS && e.sessionsAloneExcluding === e.sessions) return { outcome: 'size uncertain', direction: side };
  return { outcome: 'not established', direction: null };
}

/** The comparison with its direction judged by the rule: the stats findings' direction and sizeUncertain replaced, the replication count added. */
export type JudgedComparison = ComparisonResult & {
  findings: ComparisonResult['findings'] & { sessionsAloneExcluding: number };
};

/** How many sessions, each alone (its own paired-round interval), exclude the null value on the side of the pooled observed value. */
export function sessionsAloneExcluding(sessions: readonly PairedSession[], kind: PairedStatistic, options: BootstrapOptions, observed: number | null): number {
  if (observed === null) return 0;
  const nullValue = kind === 'ratio' ? 1 : 0;
  if (observed === nullValue) return 0;
  const below = observed < nullValue;
  let n = 0;
  for (const s of sessions) {
    const own = pairedComparison([s], kind, { ...options, seed: `${options.seed}/session-${s.session}` });
    if (own.low === null || own.high === null) continue;
    if (below ? own.high < nullValue : own.low > nullValue) n++;
  }
  return n;
}

/** Attach the rule's verdict to a comparison already computed on these sessions. */
export function judgeComparison(c: ComparisonResult, sessions: readonly PairedSession[], options: BootstrapOptions): JudgedComparison {
  // Counted for every comparison of 3 or more sessions, so the published column means the same on every row.
  const alone = c.sessions >= MIN_REPLICATING_SESSIONS ? sessionsAloneExcluding(sessions, c.kind, options, c.observed) : 0;
  const j = judgeDirection({
    kind: c.kind,
    observed: c.observed,
    low: c.low,
    high: c.high,
    sessionLow: c.sessionLow,
    sessionHigh: c.sessionHigh,
    sessions: c.sessions,
    sessionsAloneExcluding: alone,
  });
  return {
    ...c,
    findings: { ...c.findings, direction: j.direction, sizeUncertain: j.outcome === 'size uncertain', sessionsAloneExcluding: alone },
  };
}

/** The one comparison statistic with the direction rule applied. */
export function judgedComparison(sessions: readonly PairedSession[], kind: PairedStatistic, options: BootstrapOptions): JudgedComparison {
  return judgeComparison(pairedComparison(sessions, kind, options), sessions, options);
}

/** The rule's outcome of a judged comparison (its findings). */
export function outcomeOf(c: Pick<ComparisonResult, 'findings'>): DirectionOutcome {
  return c.findings.detected ? 'detected' : c.findings.sizeUncertain ? 'size uncertain' : 'not established';
}
