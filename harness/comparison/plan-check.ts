// Pure: the operating characteristics of a sampling plan, checked before it
// samples (issue 42). For one comparison whose per-round log ratio
// log a - log b has a between-session variance and a between-round variance
// (its variance profile), a seeded simulation draws each session's mean log
// ratio, N(theta, sessionVar + roundVar / rounds), which is exactly the value
// the sequential rule looks at (analysis/session-log-ratios.ts), and applies
// the rule as the sampling does (analysis/sequential-decision.ts): the repeated
// confidence interval of stats/sequential-session-interval.ts against the
// practical band, a stop at the first decision, undecided at the last look.
//
// The last look is the one the budget allows, not the plan's max_sessions: a
// plan whose boundaries spend alpha up to session 6 while its launch budget
// stops it at session 3 looks once, at a boundary meant for the first of four
// looks, and never spends the rest of its error rate. That is the case the
// check exists for: it prints the error rate at the looks actually taken, the
// power at the band and twice the band, and the same for the fixed design of
// the same expected sessions (the between-session t of a design that never
// looks early), so a plan weaker than the fixed design is a warning.
import { comparisonVerdict, relativeFromLog, type Verdict } from '../analysis/comparison-verdict.js';
import { sequentialSessionInterval, type SequentialPlan } from '../stats/sequential-session-interval.js';
import { sessionTInterval } from '../stats/session-t-interval.js';
import { seededRandom, type Random } from '../stats/seeded-random.js';

/** The variance of one comparison's per-round log ratio at each level, and the median of b (ms) that an absolute margin is taken of. */
export interface DifferenceProfile {
  id: string;
  sessionVar: number;
  roundVar: number;
  medianBMs: number | null;
}

/** The plan as configured: its looks, rounds per session and the budget. */
export interface PlanUnderCheck {
  plan: SequentialPlan;
  roundsPerSession: number;
  /** Formal launches one whole session makes (every unit, arm and condition). */
  launchesPerSession: number;
  maxLaunches: number | null;
  /** The band: relative half width, and an absolute one in ms over b's median (the wider is used). */
  marginRelative: number;
  marginMs: number;
}

export interface Rates {
  lower: number;
  higher: number;
  equivalent: number;
  undecided: number;
  /** Mean sessions sampled before the decision (or to the last look). */
  meanSessions: number;
}

export interface ProfileCheck {
  id: string;
  /** The band's relative half width for this comparison. */
  delta: number;
  /** No effect: the share of runs that call a direction. */
  error: number;
  /** The share that finds the true direction at an effect of delta and of 2 delta (ratio 1 + delta, 1 + 2 delta). */
  power: [number, number];
  /** Mean sessions the rule took at an effect of delta and of 2 delta. */
  meanSessions: [number, number];
  /** At each of the two effects, the fixed design of the sessions the rule took on average there (rounded, at least 3): its sessions and its power. */
  fixed: { sessions: [number, number]; power: [number, number] };
}

export interface PlanCheck {
  /** The sessions at which the rule looks, as the budget allows. */
  looks: number[];
  /** Why the last look is where it is. */
  lastLookBy: 'max_sessions' | 'max_launches';
  runs: number;
  seed: string;
  profiles: ProfileCheck[];
  warnings: { text: string; remedy: string }[];
}

/** The looks the budget allows: from min_sessions to max_sessions, no further than max_launches pays for (a session at its full launches). */
export function affordableLooks(p: PlanUnderCheck): { looks: number[]; lastLookBy: PlanCheck['lastLookBy'] } {
  const byBudget = p.maxLaunches === null ? Infinity : Math.floor(p.maxLaunches / p.launchesPerSession);
  const last = Math.min(p.plan.maxSessions, byBudget);
  const looks: number[] = [];
  for (let k = p.plan.minSessions; k <= last; k++) looks.push(k);
  return { looks, lastLookBy: byBudget < p.plan.maxSessions ? 'max_launches' : 'max_sessions' };
}

/** Half width of the band for a comparison whose b has this median. */
export function bandOf(p: Pick<PlanUnderCheck, 'marginRelative' | 'marginMs'>, medianBMs: number | null): number {
  return Math.max(p.marginRelative, medianBMs !== null && medianBMs > 0 && p.marginMs > 0 ? p.marginMs / medianBMs : 0);
}

function normal(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** Standard normal session draws, `sessions` per run: the sequential rule and the fixed design read the same ones, so their difference is not simulation noise. */
export function sessionDraws(runs: number, sessions: number, seed: string): Float64Array[] {
  const random = seededRandom(seed);
  return Array.from({ length: runs }, () => Float64Array.from({ length: sessions }, () => normal(random)));
}

/** The sequential rule on simulated sessions: verdict shares and mean sessions, at a true log ratio theta. */
export function simulateSequential(profile: DifferenceProfile, theta: number, p: PlanUnderCheck, lastLook: number, draws: readonly Float64Array[]): Rates {
  const runs = draws.length;
  const sd = Math.sqrt(profile.sessionVar + profile.roundVar / p.roundsPerSession);
  const half = bandOf(p, profile.medianBMs);
  const counts: Record<Verdict, number> = { lower: 0, higher: 0, equivalent: 0, undecided: 0 };
  let sessions = 0;
  for (const z of draws) {
    const values: number[] = [];
    let verdict: Verdict = 'undecided';
    for (let k = 1; k <= lastLook; k++) {
      values.push(theta + sd * z[k - 1]!);
      if (k < p.plan.minSessions) continue;
      const interval = sequentialSessionInterval(values, p.plan);
      const v = comparisonVerdict(interval ? relativeFromLog(interval) : null, half).verdict;
      if (v !== 'undecided') {
        verdict = v;
        break;
      }
    }
    counts[verdict]++;
    sessions += values.length;
  }
  return { ...shares(counts, runs), meanSessions: sessions / runs };
}

/** The fixed design's between-session t (95%, K - 1 df) on K sessions: the share of runs whose interval lies wholly on the side of theta. */
export function simulateFixed(profile: DifferenceProfile, theta: number, roundsPerSession: number, sessions: number, draws: readonly Float64Array[]): number {
  const sd = Math.sqrt(profile.sessionVar + profile.roundVar / roundsPerSession);
  let found = 0;
  for (const z of draws) {
    const values = Array.from(z.subarray(0, sessions), (x) => theta + sd * x);
    const t = sessionTInterval(values, 0.95);
    if (t && (theta > 0 ? t.low > 0 : t.high < 0)) found++;
  }
  return found / draws.length;
}

function shares(c: Record<Verdict, number>, runs: number): Omit<Rates, 'meanSessions'> {
  return { lower: c.lower / runs, higher: c.higher / runs, equivalent: c.equivalent / runs, undecided: c.undecided / runs };
}

/** The check of a plan against every profile: seeded, so the same inputs print the same figures. */
export function checkPlan(p: PlanUnderCheck, profiles: readonly DifferenceProfile[], runs = 4000, seed = 'plan-check'): PlanCheck {
  const { looks, lastLookBy } = affordableLooks(p);
  const lastLook = looks.length ? looks[looks.length - 1]! : p.plan.minSessions;
  const checked = profiles.map((profile): ProfileCheck => {
    const delta = bandOf(p, profile.medianBMs);
    const tag = `${seed}|${profile.id}`;
    const width = Math.max(lastLook, 3);
    const none = simulateSequential(profile, 0, p, lastLook, sessionDraws(runs, width, `${tag}|0`));
    // per effect, the sequential rule and the fixed design of the sessions the rule took on average there
    const at = (factor: 1 | 2): { power: number; meanSessions: number; fixedSessions: number; fixedPower: number } => {
      const theta = Math.log(1 + factor * delta);
      const draws = sessionDraws(runs, width, `${tag}|${factor}delta`);
      const r = simulateSequential(profile, theta, p, lastLook, draws);
      const fixedSessions = Math.min(width, Math.max(3, Math.round(r.meanSessions)));
      return {
        power: r.higher,
        meanSessions: r.meanSessions,
        fixedSessions,
        fixedPower: simulateFixed(profile, theta, p.roundsPerSession, fixedSessions, draws),
      };
    };
    const one = at(1);
    const two = at(2);
    return {
      id: profile.id,
      delta,
      error: none.lower + none.higher,
      power: [one.power, two.power],
      meanSessions: [one.meanSessions, two.meanSessions],
      fixed: { sessions: [one.fixedSessions, two.fixedSessions], power: [one.fixedPower, two.fixedPower] },
    };
  });
  return { looks, lastLookBy, runs, seed, profiles: checked, warnings: planWarnings(p, looks, lastLookBy, checked) };
}

/** Two points of simulation noise are not a finding: a plan is weaker than the fixed design only beyond them. */
const POWER_TOLERANCE = 0.02;

function planWarnings(
  p: PlanUnderCheck,
  looks: readonly number[],
  lastLookBy: PlanCheck['lastLookBy'],
  checked: readonly ProfileCheck[],
): PlanCheck['warnings'] {
  const out: PlanCheck['warnings'] = [];
  if (lastLookBy === 'max_launches') {
    out.push({
      text:
        `the launch budget (${p.maxLaunches}) pays for ${looks.length ? `sessions up to ${looks[looks.length - 1]}` : 'no look'} ` +
        `of ${p.launchesPerSession} launches, while the boundaries spend the error rate up to session ${p.plan.maxSessions}: the rest is never spent`,
      remedy: `set design.adaptive.max_sessions to what the budget pays for, or fewer rounds per session so that more looks fit`,
    });
  }
  const weaker = checked.filter((c) => c.power.some((x, i) => x + POWER_TOLERANCE < c.fixed.power[i]!));
  if (weaker.length) {
    out.push({
      text: `the plan finds the direction less often than the fixed design of the same expected sessions (by more than ${100 * POWER_TOLERANCE} points, at the band or twice it) for ${weaker.length} of ${checked.length} comparisons`,
      remedy: 'fewer rounds per session and more looks (more degrees of freedom between sessions), or a budget that pays for the looks the plan spends over',
    });
  }
  return out;
}
