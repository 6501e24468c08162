// Pure prose: how a report names the rule that judged its comparisons
// (judge.ts). Kept apart from the rules themselves, so that no sampling code
// imports a sentence: rewording never changes a sample stage's key.
import type { Judgement } from './judge.js';

/** The sentence a report's Method gives a run judged by the sequential rule; null when every verdict is the fixed rule's. */
export function sequentialRuleSentence(judgements: readonly Judgement[]): string | null {
  const s = judgements.map((j) => j.rule).find((r) => r.kind === 'sequential');
  if (!s || s.kind !== 'sequential') return null;
  const decided = judgements.filter((j) => j.rule.kind === 'sequential' && j.verdict !== 'undecided').length;
  return (
    `This run sampled until decided (design.adaptive), so its verdicts are the sequential rule's: the repeated 95% interval of the per-session mean log ratio, ` +
    `with looks after sessions ${s.minSessions} to ${s.maxSessions}, each decided at the first look that stops (${decided} of ${judgements.length} decided); ` +
    'the two-level and between-session intervals describe the sessions run, and decide nothing.'
  );
}
