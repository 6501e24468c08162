// Pure: the documented rule that marks a measured row "tried and dropped".
// Every metric of an effect row is lower-is-better (times, bytes). A row is
// dropped when
//   1. the after/before ratio of medians is not detected as different from 1
//      (the comparison statistic's rule: its two-level interval includes 1,
//      or, with 3 or more sessions, its between-session interval does), or
//   2. the row asks for P90 (p90: true) and P90 after > P90 before, or
//   3. the whole interval lies above 1 (after is detectably worse): the
//      source lists a change that made things worse as dropped too.
// A row with no interval (no valid pair of sides) is dropped with that reason.
import type { EffectCell } from './effect-cell.js';

export interface DropVerdict {
  dropped: boolean;
  /** One sentence per clause that applied; empty when kept. */
  reasons: string[];
}

export const TRIED_AND_DROPPED_RULE =
  'A row is tried and dropped when its after/before ratio of medians is not detected as different from 1 ' +
  '(the two-level bootstrap interval includes 1, or with 3 or more sessions the between-session interval does), ' +
  'or its whole interval lies above 1 (after is worse), or the row asks for P90 and P90 after is above P90 before. ' +
  'Every metric here is lower-is-better.';

const iv = (low: number, high: number): string => `[${low.toFixed(3)}, ${high.toFixed(3)}]`;

export function triedAndDropped(cell: EffectCell, p90: boolean): DropVerdict {
  const c = cell.comparison;
  const reasons: string[] = [];
  if (c.low === null || c.high === null) {
    return { dropped: true, reasons: ['no interval: no round holds valid values of both sides'] };
  }
  if (c.low <= 1 && c.high >= 1) reasons.push(`the ratio interval ${iv(c.low, c.high)} includes 1`);
  else if (c.low > 1) reasons.push(`after is worse: the ratio interval ${iv(c.low, c.high)} lies above 1`);
  else if (c.findings.sessionsDisagreeInSize)
    reasons.push(`the sessions disagree in size: the between-session interval ${iv(c.sessionLow!, c.sessionHigh!)} includes 1`);
  if (p90 && cell.p90Before !== null && cell.p90After !== null && cell.p90After > cell.p90Before) {
    reasons.push(`P90 got worse: ${cell.p90Before.toPrecision(4)} → ${cell.p90After.toPrecision(4)}`);
  }
  return { dropped: reasons.length > 0, reasons };
}
