// Pure: what the confirmation session (design.confirm) changed. Each
// difference is judged twice, on the planned K sessions alone and on every
// session that visited both its arms in its cohort (the K and, where it went,
// the confirmation session K + 1); a difference undecided on the K sessions
// and detected with the extra one is "confirmed". Verdicts as in
// undecided-differences.ts.
import type { ConfirmationInput, DifferenceResult } from './analysis-result.js';
import { differenceKey } from './difference-record.js';
import { verdictOf } from './undecided-differences.js';

export function withConfirmation(
  after: readonly DifferenceResult[],
  before: readonly DifferenceResult[] | null,
  confirmation: ConfirmationInput | null,
): DifferenceResult[] {
  if (!confirmation || !before) return [...after];
  const beforeByKey = new Map(before.map((d) => [differenceKey(d), d]));
  return after.map((d) => {
    const b = beforeByKey.get(differenceKey(d));
    const verdictAfter = verdictOf(d);
    const verdictBefore = b ? verdictOf(b) : 'not detected';
    const visited = confirmation.session !== null && d.perSession.some((s) => s.session === confirmation.session);
    return { ...d, confirmation: { verdictBefore, verdictAfter, visited, confirmed: verdictBefore === 'undecided' && verdictAfter === 'detected' } };
  });
}
