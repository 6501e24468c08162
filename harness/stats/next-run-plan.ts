// How many sessions x rounds next time: the least-cost design that reaches a
// stated confidence-interval half width for every cell, after Kalibera &
// Jones, "Rigorous benchmarking in reasonable time" (ISMM 2013).
//
// Inputs per cell: its variance components (variance-components.ts:
// betweenVar = T_2^2 between sessions, withinVar = T_1^2 between rounds
// within a session, one value per cell per round). Costs: sessionStartMs,
// the cost of starting a session (fresh services, preflight, warmup rounds),
// and launchMs x launchesPerRound, the cost of one formal round (c_1).
//
// Kalibera & Jones's optimum rounds per session for one cell, given costs:
//   r* = ceil( sqrt( c_2 T_1^2 / (c_1 T_2^2) ) )      (Infinity when T_2^2 = 0)
// For K sessions of r rounds the variance of the cell's grand mean is
// (T_2^2 + T_1^2 / r) / K, and the half width of its interval
//   h(K, r) = t_{(1+c)/2, K-1} * sqrt((T_2^2 + T_1^2 / r) / K).
// The plan: for every r in 1..maxRounds (in steps of roundsMultiple, so a
// balanced order's rows repeat whole), the fewest K in minSessions..maxSessions
// with h(K, r) <= target for every planned cell; of those, the (K, r) of least
// cost K (c_2 + r c_1) (ties: fewer sessions). For one cell the search lands
// at or next to r* (integer effects). It plans for means with a t interval,
// as the paper does; the report's medians and bootstrap intervals behave
// alike when values are not heavy-tailed, so treat it as a planning guide.
//
// A cell whose between-session variance is not estimated (fewer than 2
// sessions) cannot be planned: it is listed in `unplanned`, and with no
// plannable cell `reachable` is false.
//
// Per planned cell also the smallest difference the planned design would
// detect 80% of the time (power.ts), against a cell like it measured
// independently (difference variances twice the cell's): what the run can see.
//
// confirmationCost: what design.confirm would add to the planned run, one
// session over the undecided cells only (docs/STATISTICS.md "Confirmation").
import { smallestDetectableDifference } from './power.js';
import { studentTQuantile } from './student-t.js';
import type { Level, VarianceComponents } from './variance-components.js';

export interface PlanCosts {
  sessionStartMs: number;
  launchMs: number;
  /** Launches in one formal round (every path of the cohort, cold and warm). */
  launchesPerRound: number;
}

export interface PlanTarget {
  confidence: number;
  /** Half width as a share of the cell's mean, e.g. 0.02 for +-2%. */
  relativeHalfWidth?: number;
  /** Half width in the unit of the values (ms). Used when relativeHalfWidth is absent. */
  halfWidthMs?: number;
}

export interface PlanLimits {
  minSessions: number;
  maxSessions: number;
  maxRounds: number;
  /** Rounds per session come in multiples of this (a balanced order's row count); 1 when absent. */
  roundsMultiple?: number;
}

export const defaultPlanLimits: PlanLimits = { minSessions: 3, maxSessions: 50, maxRounds: 200 };

export interface PlanCell {
  id: string;
  components: VarianceComponents;
}

export interface CellPlan {
  id: string;
  dominant: Level | null;
  /** Kalibera & Jones's optimal rounds per session for this cell alone. */
  optimalRounds: number;
  targetMs: number;
  /** The half width this cell reaches with the planned sessions x rounds. */
  halfWidthMs: number;
  /**
   * The smallest true difference from a cell with the same variance
   * components, measured in the same rounds but independently of it, that the
   * planned design would call detected in 80% of runs (power.ts); null when
   * the plan has fewer than 3 sessions.
   */
  smallestDetectableMs: number | null;
}

export interface NextRunPlan {
  reachable: boolean;
  sessions: number;
  rounds: number;
  launches: number;
  costMs: number;
  cells: CellPlan[];
  /** Cells that cannot be planned (between-session variance not estimated), by id. */
  unplanned: string[];
}

/**
 * design.confirm's expected cost: one more session (its start-up) of `rounds`
 * formal rounds over `cells` cells only (the cohort x path x state cells of the
 * differences still undecided), one launch per cell and round.
 */
export function confirmationCost(cells: number, rounds: number, costs: Pick<PlanCosts, 'sessionStartMs' | 'launchMs'>): { launches: number; costMs: number } {
  const launches = cells * rounds;
  return { launches, costMs: cells === 0 ? 0 : costs.sessionStartMs + launches * costs.launchMs };
}

/** Kalibera & Jones's optimal rounds per session: ceil(sqrt(c2 T1^2 / (c1 T2^2))). */
export function optimalRoundsPerSession(c: VarianceComponents, costs: PlanCosts): number {
  const t1 = c.withinVar ?? 0;
  const t2 = c.betweenVar ?? 0;
  if (t1 === 0) return 1;
  if (t2 === 0) return Infinity;
  const roundMs = costs.launchMs * costs.launchesPerRound;
  return Math.max(1, Math.ceil(Math.sqrt((costs.sessionStartMs * t1) / (roundMs * t2))));
}

/** Half width of the t interval of the cell's mean with `sessions` sessions of `rounds` rounds. */
export function planHalfWidth(c: VarianceComponents, sessions: number, rounds: number, confidence: number): number {
  if (sessions < 2) return Infinity;
  const t = studentTQuantile((1 + confidence) / 2, sessions - 1);
  return t * Math.sqrt(((c.betweenVar ?? 0) + (c.withinVar ?? 0) / rounds) / sessions);
}

function targetOf(c: VarianceComponents, target: PlanTarget): number {
  return target.relativeHalfWidth !== undefined ? target.relativeHalfWidth * Math.abs(c.mean) : (target.halfWidthMs ?? 0);
}

export function planNextRun(cells: readonly PlanCell[], costs: PlanCosts, target: PlanTarget, limits: PlanLimits = defaultPlanLimits): NextRunPlan {
  const plannable = cells.filter((c) => c.components.betweenVar !== null && c.components.withinVar !== null);
  const unplanned = cells.filter((c) => !plannable.includes(c)).map((c) => c.id);
  const roundMs = costs.launchMs * costs.launchesPerRound;
  const costOf = (k: number, r: number): number => k * (costs.sessionStartMs + r * roundMs);
  const targets = plannable.map((c) => targetOf(c.components, target));
  const minK = Math.max(2, limits.minSessions);

  let best: { k: number; r: number; cost: number } | null = null;
  const step = Math.max(1, Math.floor(limits.roundsMultiple ?? 1));
  for (let r = step; r <= Math.max(limits.maxRounds, step); r += step) {
    let k = minK;
    for (let i = 0; i < plannable.length && k <= limits.maxSessions; i++) {
      while (k <= limits.maxSessions && planHalfWidth(plannable[i]!.components, k, r, target.confidence) > targets[i]!) k++;
    }
    if (k > limits.maxSessions) continue;
    const cost = costOf(k, r);
    if (best === null || cost < best.cost || (cost === best.cost && k < best.k)) best = { k, r, cost };
  }
  const reachable = best !== null && plannable.length > 0;
  const k = best?.k ?? limits.maxSessions;
  const r = best?.r ?? limits.maxRounds;
  return {
    reachable,
    sessions: k,
    rounds: r,
    launches: k * r * costs.launchesPerRound,
    costMs: costOf(k, r),
    cells: plannable.map((c, i) => ({
      id: c.id,
      dominant: c.components.dominant,
      optimalRounds: optimalRoundsPerSession(c.components, costs),
      targetMs: targets[i]!,
      halfWidthMs: planHalfWidth(c.components, k, r, target.confidence),
      smallestDetectableMs: smallestDetectableDifference(
        { sessionVar: 2 * (c.components.betweenVar ?? 0), roundVar: 2 * (c.components.withinVar ?? 0) },
        k,
        r,
        target.confidence,
      ),
    })),
    unplanned,
  };
}
