// Pure: the operating characteristics of the design a run used (issue 42
// item 4), from the run's own variance profiles: the plan check
// (plan-check.ts) of its looks, its rounds per session and its budget, and,
// for a run that sampled until decided, the fixed design of equal power: the
// fewest sessions of the same rounds whose between-session t finds the
// direction at the band at least as often (median over the comparisons) as
// the rule did. "What stopping saved" is said against that design, not
// against a design the budget could not pay for.
import { bandOf, checkPlan, sessionDraws, simulateFixed, type DifferenceProfile, type PlanCheck, type PlanUnderCheck } from './plan-check.js';
import { planOfLooks, type Looks } from './judge.js';
import { median } from '../stats/quantile.js';

export interface RunDesign {
  /** The looks of a run that sampled until decided; null for a fixed design. */
  looks: Looks | null;
  /** Sessions the run made (a fixed design's one look). */
  sessionsRun: number;
  roundsPerSession: number;
  /** Formal launches of a whole session (every unit, arm and condition). */
  launchesPerSession: number;
  maxLaunches: number | null;
  marginRelative: number;
  marginMs: number;
}

export interface RunOperatingCharacteristics {
  plan: PlanUnderCheck;
  check: PlanCheck;
  /** Adaptive runs: the fixed design of equal power at the band (sessions and launches); null for a fixed design or past the search. */
  equalPowerFixed: { sessions: number; launches: number } | null;
}

/** The plan a run's design amounts to: its looks, or one look at the sessions it made. */
export function planOfRun(d: RunDesign): PlanUnderCheck {
  const looks = d.looks ?? { minSessions: Math.max(2, d.sessionsRun), maxSessions: Math.max(2, d.sessionsRun) };
  return {
    plan: planOfLooks(looks),
    roundsPerSession: d.roundsPerSession,
    launchesPerSession: d.launchesPerSession,
    maxLaunches: d.looks ? d.maxLaunches : null,
    marginRelative: d.marginRelative,
    marginMs: d.marginMs,
  };
}

export function runOperatingCharacteristics(
  d: RunDesign,
  profiles: readonly DifferenceProfile[],
  runs = 2000,
  seed = 'operating',
): RunOperatingCharacteristics {
  const plan = planOfRun(d);
  const check = checkPlan(plan, profiles, runs, seed);
  let equalPowerFixed: RunOperatingCharacteristics['equalPowerFixed'] = null;
  if (d.looks && check.profiles.length) {
    const target = median(check.profiles.map((c) => c.power[0]));
    const top = 4 * plan.plan.maxSessions;
    const draws = profiles.map((p) => sessionDraws(runs, top, `${seed}|${p.id}|equal-power`));
    for (let k = 3; k <= top && !equalPowerFixed; k++) {
      const power = median(profiles.map((p, i) => simulateFixed(p, Math.log(1 + bandOf(plan, p.medianBMs)), plan.roundsPerSession, k, draws[i]!)));
      if (power >= target) equalPowerFixed = { sessions: k, launches: k * plan.launchesPerSession };
    }
  }
  return { plan, check, equalPowerFixed };
}
