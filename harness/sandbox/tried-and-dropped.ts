// Pure: the documented rule that gives a measured row its outcome. Every
// metric of an effect row is lower-is-better (times, bytes). The direction
// and the size are judged apart by the one direction rule of every
// experiment (analysis/direction-rule.ts, docs/VERDICTS.md): a row whose
// two-level interval excludes 1 has an established direction when it is
// detected, or when every session, on its own rounds, excludes 1 on the same
// side even though the between-session interval holds 1; that only makes its
// size uncertain (sizeUncertain, with the per-session range as its caveat).
// A row is
//   dropped    when
//     1. the after/before direction is not established (the two-level
//        interval includes 1, or neither the between-session interval nor
//        every session alone excludes it), or
//     2. the row asks for P90 (p90: true) and P90 after > P90 before, or
//     3. the whole interval lies above 1 (after is detectably worse): the
//        source lists a change that made things worse as dropped too;
//   too-small  when it is detected and better, but below the practical floor
//              (analysis.practical: at least 5% and 10 ms by default);
//   kept       otherwise.
// A row with no interval (no valid pair of sides) is dropped with that reason.
import type { EffectCell } from './effect-cell.js';
import { directionRuleText } from '../comparison/rule-words.js';
import { belowFloor, DEFAULT_PRACTICAL_FLOOR, floorText, type PracticalFloor } from './practical-floor.js';

export type RowOutcome = 'kept' | 'too-small' | 'dropped';

export interface DropVerdict {
  outcome: RowOutcome;
  /** outcome !== 'kept'. */
  dropped: boolean;
  /** Both intervals exclude 1 (stats/detection-rule.ts). */
  detected: boolean;
  /** The direction of after / before by the one direction rule (detected, or size uncertain); null when not established. A negative control fails on it. */
  direction: 'lower' | 'higher' | null;
  /** Both intervals lie inside the practical floor around 1 (analysis/difference-verdict.ts 'equivalent'): a negative control holds on it. */
  equivalent: boolean;
  /** One sentence per clause that applied; empty when kept. */
  reasons: string[];
  /** The direction holds in every session but the sessions disagree in size: the caveat on the magnitude, else null. */
  sizeCaveat: string | null;
}

export function triedAndDroppedRule(floor: PracticalFloor): string {
  return (
    `${directionRuleText('1')} A row is dropped when its after/before direction is undecided by that rule. ` +
    'A row is also dropped ' +
    'when its whole interval lies above 1 (after is worse), or when it asks for P90 and P90 got worse. ' +
    `An improvement is too small to keep unless it is ${floorText(floor)} (analysis.practical). ` +
    'Every metric here is lower-is-better.'
  );
}

const iv = (low: number, high: number): string => `[${low.toFixed(3)}, ${high.toFixed(3)}]`;

export function triedAndDropped(cell: EffectCell, p90: boolean, floor: PracticalFloor = DEFAULT_PRACTICAL_FLOOR, unit = 'ms'): DropVerdict {
  const c = cell.comparison;
  const reasons: string[] = [];
  if (c.low === null || c.high === null || c.observed === null) {
    return {
      outcome: 'dropped',
      dropped: true,
      detected: false,
      direction: null,
      equivalent: false,
      reasons: ['no interval: no round holds valid values of both sides'],
      sizeCaveat: null,
    };
  }
  // the verdict under analysis.practical, by the rule the sampling used (comparison/judge.ts)
  const j = cell.judgement;
  const sequential = j.rule.kind === 'sequential' ? j.rule : null;
  const direction = j.direction;
  const detected = sequential ? direction !== null : c.findings.detected;
  const equivalent = j.verdict === 'equivalent';
  const judged = { detected, direction, equivalent };
  const perSession = c.perSession.flatMap((s) => (s.observed === null ? [] : [s.observed]));
  const sizeCaveat =
    !sequential && c.findings.sizeUncertain
      ? `size uncertain: ×${Math.min(...perSession).toFixed(2)} to ×${Math.max(...perSession).toFixed(2)} by session, between-session interval ${iv(c.sessionLow!, c.sessionHigh!)}`
      : null;
  if (sequential) {
    const at = `the sequential rule's interval at session ${sequential.look}`;
    const ends = sequential.ratioLow !== null && sequential.ratioHigh !== null ? ` ${iv(sequential.ratioLow, sequential.ratioHigh)}` : '';
    if (direction === 'higher') reasons.push(`after is worse: ${at}${ends} lies above 1`);
    else if (direction === null) reasons.push(`undecided: ${at}${ends} (looks ${sequential.minSessions} to ${sequential.maxSessions}) does not exclude 1`);
  } else if (c.low <= 1 && c.high >= 1) reasons.push(`the ratio interval ${iv(c.low, c.high)} includes 1`);
  else if (c.low > 1) reasons.push(`after is worse: the ratio interval ${iv(c.low, c.high)} lies above 1`);
  else if (direction === null)
    reasons.push(
      `the sessions disagree: the between-session interval ${iv(c.sessionLow!, c.sessionHigh!)} includes 1, and ${c.findings.sessionsAloneExcluding} of ${c.sessions} sessions alone exclude it (${c.sameDirection} point the same way)`,
    );
  if (p90 && cell.p90Before !== null && cell.p90After !== null && cell.p90After > cell.p90Before) {
    reasons.push(`P90 got worse: ${cell.p90Before.toPrecision(4)} → ${cell.p90After.toPrecision(4)}`);
  }
  if (reasons.length) return { outcome: 'dropped', dropped: true, ...judged, reasons, sizeCaveat: null };
  const deltaMs = unit === 'ms' && cell.p50After !== null && cell.p50Before !== null ? cell.p50After - cell.p50Before : null;
  const small = belowFloor(c.observed, deltaMs, floor);
  if (small) return { outcome: 'too-small', dropped: true, ...judged, reasons: [`too small to keep: ${small}`], sizeCaveat };
  return { outcome: 'kept', dropped: false, ...judged, reasons: [], sizeCaveat };
}
