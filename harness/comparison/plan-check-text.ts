// Pure: the plan check (plan-check.ts) in the lines `pipeline run --dry-run`
// prints: the looks the budget allows, then per band the error rate and the
// power of the plan beside the fixed design of the same expected sessions,
// each as the range over the comparisons checked, and each warning with its
// remedy.
import type { PlanCheck, PlanUnderCheck } from './plan-check.js';
import { pct, rangeText as range, spreadText as spread } from './rate-spread.js';
import { spendingWords } from './spending-words.js';

const one = (x: number): string => x.toFixed(1);

/** The check in plain lines (no trailing newline); `source` says where the variance profiles come from. */
export function planCheckLines(p: PlanUnderCheck, c: PlanCheck, source: string): string[] {
  const looks = c.looks.length
    ? c.looks.length === 1
      ? `one look, after session ${c.looks[0]}`
      : `looks after sessions ${c.looks[0]}..${c.looks[c.looks.length - 1]}`
    : 'no look';
  const by =
    c.lastLookBy === 'max_launches' ? ` (max_launches ${p.maxLaunches} pays for ${c.looks[c.looks.length - 1] ?? 0} sessions of ${p.launchesPerSession})` : '';
  if (!c.profiles.length) return [`plan check (design.adaptive): ${looks}${by}; no variance profile to simulate with (${source})`];
  const deltas = c.profiles.map((x) => x.delta);
  const out = [
    `plan check (design.adaptive): ${looks}${by}, ${p.roundsPerSession} rounds a session, alpha ${p.plan.alpha}${spendingWords(p.plan)}`,
    `  ${c.profiles.length} comparisons, band delta ${range(deltas)} (${pct(p.marginRelative)} or ${p.marginMs} ms of b's median); ${c.runs} simulated runs each, seed '${c.seed}', ${source}`,
    `  no effect: a direction called in ${spread(c.profiles.map((x) => x.error))} of runs`,
    `  power at delta, median (range): ${spread(c.profiles.map((x) => x.power[0]))}, at 2 delta ${spread(c.profiles.map((x) => x.power[1]))}; mean sessions ${range(
      c.profiles.map((x) => x.meanSessions[0]),
      one,
    )} and ${range(
      c.profiles.map((x) => x.meanSessions[1]),
      one,
    )}`,
    `  fixed design of those sessions (${p.roundsPerSession} rounds each, between-session t): power at delta ${spread(c.profiles.map((x) => x.fixed.power[0]))}, at 2 delta ${spread(c.profiles.map((x) => x.fixed.power[1]))}`,
  ];
  for (const w of c.warnings) out.push(`  warning: ${w.text} (${w.remedy})`);
  return out;
}
