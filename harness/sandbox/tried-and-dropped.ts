// Pure: the documented rule that marks a measured row "tried and dropped".
// Every metric of an effect row is lower-is-better (times, bytes). A row is
// dropped when
//   1. the bootstrap interval of the after/before ratio of medians includes 1
//      (no effect detected), or
//   2. the row asks for P90 (p90: true) and P90 after > P90 before, or
//   3. the whole interval lies above 1 (after is detectably worse): the
//      source lists a change that made things worse as dropped too.
// A row with no interval (no valid pair of sides) is dropped with that reason.
import type { EffectCell } from './effect-ratio.js';

export interface DropVerdict {
  dropped: boolean;
  /** One sentence per clause that applied; empty when kept. */
  reasons: string[];
}

export const TRIED_AND_DROPPED_RULE =
  'A row is tried and dropped when the bootstrap interval of the after/before ratio of medians includes 1, ' +
  'or its whole interval lies above 1 (after is worse), or the row asks for P90 and P90 after is above P90 before. ' +
  'Every metric here is lower-is-better.';

export function triedAndDropped(cell: EffectCell, p90: boolean): DropVerdict {
  const reasons: string[] = [];
  if (cell.low === null || cell.high === null) {
    return { dropped: true, reasons: ['no interval: no round holds valid values of both sides'] };
  }
  if (cell.low <= 1 && cell.high >= 1) reasons.push(`the ratio interval [${cell.low.toFixed(3)}, ${cell.high.toFixed(3)}] includes 1`);
  else if (cell.low > 1) reasons.push(`after is worse: the ratio interval [${cell.low.toFixed(3)}, ${cell.high.toFixed(3)}] lies above 1`);
  if (p90 && cell.p90Before !== null && cell.p90After !== null && cell.p90After > cell.p90Before) {
    reasons.push(`P90 got worse: ${cell.p90Before.toPrecision(4)} → ${cell.p90After.toPrecision(4)}`);
  }
  return { dropped: reasons.length > 0, reasons };
}
