// Pure: the one verdict of a comparison a ∘ b (a − b in ms, or a / b), for
// every experiment: lower, higher, equivalent within the practical margin, or
// undecided (docs/VERDICTS.md), and the rule that made it.
//
// Which rule is not the report's choice but the sampling's: a run that looked
// after every session and stopped when its comparisons were decided
// (design.adaptive; the sample stage's adaptive.json gives the looks) is
// judged by the sequential rule the sampling used, the repeated confidence
// interval of the per-session mean log ratios, decided at the first look that
// stops and kept (analysis/sequential-decision.ts); the fixed design's
// intervals do not hold their error rate at a stop the data chose. A run of a
// fixed number of sessions is judged by the fixed rule: the one direction rule
// (analysis/direction-rule.ts: detected, or size uncertain) for lower and
// higher, both intervals inside the band for equivalent
// (analysis/difference-verdict.ts).
//
// The band is the user's analysis.practical, whatever the experiment: its
// relative half width is the wider of min_ratio_change and min_ms over b's
// median, for a ratio of two times as for a difference; a ratio of bytes, or
// of anything without a median in ms, takes the relative half width alone.
import { marginHalfWidth, type ComparisonVerdict } from '../analysis/comparison-verdict.js';
import { fixedDifferenceVerdict } from '../analysis/difference-verdict.js';
import type { JudgedComparison } from '../analysis/direction-rule.js';
import { firstStoppingDecision } from '../analysis/sequential-decision.js';
import type { PracticalMargin } from '../config/practical-margin.js';
import { median } from '../stats/quantile.js';
import { lookPlan, type SequentialPlan } from '../stats/sequential-session-interval.js';
import type { PairedSession } from '../stats/two-level-bootstrap.js';

/** The looks of a run that sampled until decided (adaptive.json); null for a fixed design. */
export interface Looks {
  minSessions: number;
  maxSessions: number;
  /** The power-family spending exponent the sampling's boundaries used (alpha t^rho); absent: 1, linear. */
  spendingRho?: number;
}

/** How the verdict was made: the fixed rule at the run's one look, or the sequential rule at the look it stopped. */
export type VerdictRule =
  | { kind: 'fixed'; sessions: number }
  | {
      kind: 'sequential';
      /** Sessions at the look the decision was taken (or the last look so far, undecided). */
      look: number;
      /** The plan's looks: first and last. */
      minSessions: number;
      maxSessions: number;
      /** True when the rule stopped (a decision, or the budget's last look). */
      stopped: boolean;
      /** The look's interval of the ratio a / b (geometric mean of the per-round ratios); null before the first look. */
      ratio: number | null;
      ratioLow: number | null;
      ratioHigh: number | null;
    };

export interface Judgement extends ComparisonVerdict {
  /** lower or higher when the rule establishes a direction; null otherwise. */
  direction: 'lower' | 'higher' | null;
  rule: VerdictRule;
}

/** Per session (in session order), the mean over its rounds holding both sides of log a − log b (each side's median in the round). */
export function sessionMeanLogRatios(sessions: readonly PairedSession[]): number[] {
  const out: number[] = [];
  for (const s of [...sessions].sort((x, y) => x.session - y.session)) {
    const d = s.rounds.filter((r) => r.a.length && r.b.length && median(r.a) > 0 && median(r.b) > 0).map((r) => Math.log(median(r.a)) - Math.log(median(r.b)));
    if (d.length) out.push(d.reduce((x, y) => x + y, 0) / d.length);
  }
  return out;
}

/** The sequential plan of a run's looks, as the sampling used it. */
export const planOfLooks = (looks: Looks): SequentialPlan => lookPlan(looks.minSessions, looks.maxSessions, looks.spendingRho);

/** The sequential rule's verdict of one comparison: its sessions' mean log ratios at the run's looks, against the band `half` (relative). */
export function judgeSequentially(sessions: readonly PairedSession[], half: number, looks: Looks): Judgement {
  const plan = planOfLooks(looks);
  const d = firstStoppingDecision(sessionMeanLogRatios(sessions), plan, half);
  const verdict = d.stop ? d.verdict : 'undecided';
  return {
    verdict,
    withinMargin: d.stop && d.withinMargin,
    marginRelative: half,
    direction: verdict === 'lower' || verdict === 'higher' ? verdict : null,
    rule: {
      kind: 'sequential',
      look: d.sessions,
      minSessions: plan.minSessions,
      maxSessions: plan.maxSessions,
      stopped: d.stop,
      ratio: d.interval ? Math.exp(d.interval.mean) : null,
      ratioLow: d.interval ? Math.exp(d.interval.low) : null,
      ratioHigh: d.interval ? Math.exp(d.interval.high) : null,
    },
  };
}

/**
 * The verdict of one comparison. `referenceMs`: b's median when the compared values are ms (the band's
 * absolute part), else null. `looks`: the run's adaptive looks, or null for a fixed design.
 */
export function judge(
  c: JudgedComparison,
  sessions: readonly PairedSession[],
  referenceMs: number | null,
  margin: PracticalMargin,
  looks: Looks | null,
): Judgement {
  const half = marginHalfWidth(margin, referenceMs);
  if (looks) return judgeSequentially(sessions, half, looks);
  const fixed = { kind: 'fixed' as const, sessions: c.sessions };
  if (c.observed === null) return { verdict: 'undecided', withinMargin: false, marginRelative: half, direction: null, rule: fixed };
  // the band as a relative half width: a ratio needs no reference, a difference is read against b's median
  const v = fixedDifferenceVerdict(
    {
      observed: c.observed,
      low: c.low,
      high: c.high,
      sessionLow: c.sessionLow,
      sessionHigh: c.sessionHigh,
      detected: c.findings.detected,
      sizeUncertain: c.findings.sizeUncertain,
    },
    c.kind === 'ratio' ? 'ratio' : 'difference',
    c.kind === 'ratio' ? null : referenceMs,
    { relative: half, absoluteMs: 0 },
  );
  return { ...v, direction: v.verdict === 'lower' || v.verdict === 'higher' ? v.verdict : null, rule: fixed };
}
