// Pure prose: a run's operating characteristics (operating-characteristics.ts)
// as its report's Method says them: the looks it took, the error rate at
// those looks, the power at the band and twice it, beside the fixed design of
// the same sessions; medians over the comparisons, with their range.
import type { RunOperatingCharacteristics } from './operating-characteristics.js';
import { spreadText as spread } from './rate-spread.js';
import { spendingWords } from './spending-words.js';

/** One paragraph; without a comparison to simulate, why. */
export function operatingSentence(oc: RunOperatingCharacteristics, adaptive: boolean, what = 'Ready comparisons'): string {
  const c = oc.check;
  if (!c.profiles.length)
    return "Operating characteristics of this design (its error rate and power) are not estimated: a comparison's variance between sessions needs rounds of both paths in 2 or more sessions, and this run has none.";
  const looks = c.looks.length === 1 ? `one look, after session ${c.looks[0]}` : `looks after sessions ${c.looks[0]} to ${c.looks[c.looks.length - 1]}`;
  const budget =
    adaptive && c.lastLookBy === 'max_launches'
      ? ` (the launch budget paid for no more; the boundaries spend alpha up to session ${oc.plan.plan.maxSessions})`
      : '';
  const rule = adaptive ? 'the sequential rule' : 'the between-session t';
  const fixed = adaptive
    ? ` The fixed design of the same sessions: ${spread(c.profiles.map((p) => p.fixed.power[0]))} and ${spread(c.profiles.map((p) => p.fixed.power[1]))}.`
    : '';
  return (
    `Operating characteristics of this design, by a seeded simulation (${c.runs} runs per comparison, seed \`${c.seed}\`) on this run's own variance profiles of the ${c.profiles.length} ${what}: ${looks}${budget}${adaptive ? spendingWords(oc.plan.plan) : ''}; ` +
    `with no difference, ${rule} calls a direction in ${spread(c.profiles.map((p) => p.error))} of runs; ` +
    `it finds a true difference of the band δ in ${spread(c.profiles.map((p) => p.power[0]))}, of 2δ in ${spread(c.profiles.map((p) => p.power[1]))} (medians over the comparisons, then their range).${fixed}`
  );
}
