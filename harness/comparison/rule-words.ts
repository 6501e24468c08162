// Pure prose: how a report names the rule that judged its comparisons
// (judge.ts). Kept apart from the rules themselves, so that no sampling code
// imports a sentence: rewording never changes a sample stage's key.
import type { Judgement } from './judge.js';

/** The same rule in brief, for a report that links docs/VERDICTS.md instead of spending its word budget. */
export function directionRuleBrief(nullValue: '0' | '1'): string {
  return (
    `Verdicts (docs/VERDICTS.md): **detected** when both intervals exclude ${nullValue}; ` +
    `**size uncertain** when, with 3 or more sessions, only the two-level one does and each session on its own rounds excludes ${nullValue} on the same side; **undecided** otherwise.`
  );
}

/** The rule in one sentence, as each experiment's Method states it; null value "0" for a difference, "1" for a ratio. */
export function directionRuleText(nullValue: '0' | '1'): string {
  return (
    `Verdicts follow one rule (docs/VERDICTS.md): **detected** when both intervals exclude ${nullValue}; ` +
    `**size uncertain** when, with 3 or more sessions, the two-level interval excludes ${nullValue} and every session on its own rounds excludes ${nullValue} on the same side while the between-session interval does not: ` +
    `the direction holds, the size is only a range over sessions; **undecided** otherwise.`
  );
}

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
