// The between-session interval of a difference that stays valid when the
// experiment looks after every session and stops when it has an answer: a
// group-sequential Student t over the per-session differences (one value per
// session, e.g. the session's mean log-ratio), with Lan-DeMets alpha spending
// (alpha-spending.ts) over looks at sessions minSessions .. maxSessions,
// information fraction k / maxSessions at look k.
//
// At look k the normal boundary z_k is turned into a t boundary with the same
// nominal level, t_{k-1}^{-1}(Phi(z_k)) (the "significance level approach",
// Jennison & Turnbull 2000, section 11.4), and the interval is the repeated
// confidence interval mean +- t_boundary * sd / sqrt(k) (Jennison & Turnbull,
// "Interim analyses: the repeated confidence interval approach", JRSS B 51,
// 1989): with no difference, the chance that any look's interval excludes 0
// is about alpha, and the intervals cover the true mean at every look at
// once with about 1 - alpha, so a decision taken at whatever look the data
// chose keeps its error rate. Assumptions: sessions independent and
// exchangeable, per-session values near normal (they are means of many
// launches); what the t conversion gives up is measured by simulation
// (test/stats-sequential-session-interval.test.ts, bench/sequential-table.ts).
import { spendingBoundaries, type SpendingFunction } from './alpha-spending.js';
import { seededRandom } from './seeded-random.js';
import { studentTQuantile } from './student-t.js';

export interface SequentialPlan {
  /** First look, at least 2 (one degree of freedom). */
  minSessions: number;
  /** Last look: the budget; alpha is spent in full there. */
  maxSessions: number;
  /** Two-sided error rate over all looks, e.g. 0.05. */
  alpha: number;
  spending: SpendingFunction;
}

/**
 * The default: looks after sessions 3 to 12, linear spending (power family,
 * rho 1, between Pocock and O'Brien-Fleming). O'Brien-Fleming spends so
 * little early that with K - 1 = 2..4 degrees of freedom its first t
 * boundaries are 139, 17 and 7.7: at a 10% effect with the typical published
 * profile it needed a median of 6 sessions, linear spending 4
 * (bench/sequential-table.ts, docs/STATISTICS.md).
 */
export const defaultSequentialPlan: SequentialPlan = { minSessions: 3, maxSessions: 12, alpha: 0.05, spending: { kind: 'power', rho: 1 } };

/** The plan of looks after sessions minSessions..maxSessions spending alpha t^rho (rho 1, linear, unless given; 3 spends less early, keeping power for the last looks). */
export function lookPlan(minSessions: number, maxSessions: number, spendingRho = 1): SequentialPlan {
  return { ...defaultSequentialPlan, minSessions, maxSessions, spending: { kind: 'power', rho: spendingRho } };
}

export interface SequentialInterval {
  /** Sessions seen, the look's index in sessions. */
  sessions: number;
  mean: number;
  low: number;
  high: number;
  /** The t boundary of this look (Infinity when it spends nothing). */
  criticalT: number;
  /** Two-sided nominal level of this look. */
  nominalAlpha: number;
  /** True when this look is the plan's last (the budget is spent). */
  lastLook: boolean;
}

/** Null paths of the calibration (seeded: every process computes the same boundaries). */
export const calibrationPaths = 40000;

function studentizedNullPaths(plan: SequentialPlan): Float64Array[] {
  // |T_k| at looks minSessions..maxSessions of calibrationPaths paths of N(0, 1)
  // sessions. T is pivotal under no difference: its law depends on neither
  // the mean nor the sd, so these paths stand for every such experiment.
  const random = seededRandom(`sequential-session-interval|${plan.minSessions}|${plan.maxSessions}`);
  const looks = plan.maxSessions - plan.minSessions + 1;
  const out = Array.from({ length: looks }, () => new Float64Array(calibrationPaths));
  for (let p = 0; p < calibrationPaths; p++) {
    let sum = 0;
    let sumSq = 0;
    for (let k = 1; k <= plan.maxSessions; k++) {
      const x = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
      sum += x;
      sumSq += x * x;
      if (k >= plan.minSessions) {
        const mean = sum / k;
        const sd = Math.sqrt(Math.max(0, (sumSq - k * mean * mean) / (k - 1)));
        out[k - plan.minSessions]![p] = Math.abs(mean) / (sd / Math.sqrt(k));
      }
    }
  }
  return out;
}

function tBoundaries(plan: SequentialPlan, spendingAlpha: number): { criticalT: number[]; nominalAlpha: number[] } {
  const fractions: number[] = [];
  for (let k = plan.minSessions; k <= plan.maxSessions; k++) fractions.push(k / plan.maxSessions);
  const z = spendingBoundaries(fractions, spendingAlpha, plan.spending);
  return {
    nominalAlpha: z.map((b) => b.nominalAlpha),
    criticalT: z.map((b, i) => (b.nominalAlpha > 0 ? studentTQuantile(1 - b.nominalAlpha / 2, plan.minSessions + i - 1) : Number.POSITIVE_INFINITY)),
  };
}

function nullCrossingRate(paths: readonly Float64Array[], criticalT: readonly number[]): number {
  let crossed = 0;
  for (let p = 0; p < calibrationPaths; p++) {
    for (let j = 0; j < paths.length; j++) {
      if (paths[j]![p]! >= criticalT[j]!) {
        crossed++;
        break;
      }
    }
  }
  return crossed / calibrationPaths;
}

export interface PlanBoundaries {
  /** t boundary per look, index 0 = session minSessions. */
  criticalT: number[];
  nominalAlpha: number[];
  /** The level fed to the spending function so that the t boundaries cross in alpha of the null paths. */
  spendingAlpha: number;
  /** Share of the calibration's null paths that cross some look (about alpha). */
  nullCrossing: number;
}

const cache = new Map<string, PlanBoundaries>();

/**
 * The t boundaries of every look of the plan. The normal boundaries turned
 * into t by their nominal level cross more often than alpha with few
 * sessions (5.6% for O'Brien-Fleming looks 3..12 at alpha 5%, 20,000 normal
 * paths), so the level fed to the spending function is lowered, by bisection,
 * until the boundaries cross in alpha of calibrationPaths seeded null paths.
 */
export function planBoundaries(plan: SequentialPlan): PlanBoundaries {
  if (!(Number.isInteger(plan.minSessions) && plan.minSessions >= 2 && Number.isInteger(plan.maxSessions) && plan.maxSessions >= plan.minSessions)) {
    throw new Error(`a sequential plan needs integers 2 <= minSessions <= maxSessions, got ${plan.minSessions} and ${plan.maxSessions}`);
  }
  const key = JSON.stringify(plan);
  const hit = cache.get(key);
  if (hit) return hit;
  const paths = studentizedNullPaths(plan);
  /** The t boundaries at one spending level, with the share of the null paths that cross them. */
  const boundariesAt = (spendingAlpha: number) => {
    const boundaries = tBoundaries(plan, spendingAlpha);
    return { boundaries, rate: nullCrossingRate(paths, boundaries.criticalT) };
  };
  let lo = plan.alpha / 4;
  let hi = plan.alpha;
  let best = boundariesAt(lo);
  const top = boundariesAt(hi);
  if (top.rate <= plan.alpha) {
    best = top;
    lo = hi;
  } else {
    for (let i = 0; i < 14; i++) {
      const mid = (lo + hi) / 2;
      const tried = boundariesAt(mid);
      if (tried.rate <= plan.alpha) {
        lo = mid;
        best = tried;
      } else hi = mid;
    }
  }
  const out = { ...best.boundaries, spendingAlpha: lo, nullCrossing: best.rate };
  cache.set(key, out);
  return out;
}

/** The t boundary at a look of k sessions; null before the first look or after the last. */
export function sequentialCriticalT(plan: SequentialPlan, sessions: number): { criticalT: number; nominalAlpha: number } | null {
  if (sessions < plan.minSessions || sessions > plan.maxSessions) return null;
  const b = planBoundaries(plan);
  return { criticalT: b.criticalT[sessions - plan.minSessions]!, nominalAlpha: b.nominalAlpha[sessions - plan.minSessions]! };
}
/** The repeated confidence interval after the given sessions; null before the first look, after the last, or with a value missing. */
export function sequentialSessionInterval(perSession: readonly number[], plan: SequentialPlan): SequentialInterval | null {
  const k = perSession.length;
  const bound = sequentialCriticalT(plan, k);
  if (!bound || !perSession.every(Number.isFinite)) return null;
  const mean = perSession.reduce((s, v) => s + v, 0) / k;
  const variance = perSession.reduce((s, v) => s + (v - mean) ** 2, 0) / (k - 1);
  const half = bound.criticalT * Math.sqrt(variance / k);
  // A zero spread with an infinite boundary is no information, not a point.
  const width = Number.isFinite(half) ? half : Number.POSITIVE_INFINITY;
  return {
    sessions: k,
    mean,
    low: mean - width,
    high: mean + width,
    criticalT: bound.criticalT,
    nominalAlpha: bound.nominalAlpha,
    lastLook: k === plan.maxSessions,
  };
}
