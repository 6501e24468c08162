// Pure: the rounds one session runs, in order: its preflight rounds for every
// unit (when it has one), then its warmup rounds and the formal rounds it
// still has to run (session-plan.ts), each round over every unit that has it.
// Units are interleaved within rounds, not run in blocks: round r of every
// unit runs before round r + 1 of any, and the units' order within a round
// walks a balanced (Williams) design of its own (arm-order.ts), so a
// comparison along the unit factor pairs launches seconds apart, as the arms
// within a unit do, and a slow drift of the host lines up with no unit. An
// experiment whose units each need a setup run once a session (sandbox-effects'
// rows, the restore sweep's checkpointed apps) runs each unit's rounds in one
// block instead, and compares only arms within a unit. Every experiment's
// scheduler walks this list (run-rounds.ts).
import { armOrder } from './arm-order.js';
import type { Phase, SessionWork } from './session-plan.js';

export interface RoundStep {
  unit: string;
  phase: Phase;
  /** The round within its phase, from 1. */
  round: number;
  /** Rounds of this phase for the unit, for progress lines (`round 3/10`). */
  of: number;
}

export interface StepDesign {
  /** Preflight rounds per unit; 0 for none (the first session's preflight is the warmup stage's). */
  preflight: number;
  warmupRounds: number;
  formalRounds: number;
  /** Every unit of the experiment, in order (preflight covers all of them). */
  units: readonly string[];
  /** The design's seed: the units' order within each round derives from it. */
  seed: string;
  /** False: each unit's rounds in one block, the units in the experiment's order (an adapter whose units have a setup run once a session); default true. */
  interleaveUnits?: boolean;
}

/** The label under which the units' own order is drawn (no unit of a pipeline can have it: it holds a NUL). */
const UNITS = '\u0000units';

/** Pure: the order of `units` within one round of a phase. */
export function unitOrder(d: Pick<StepDesign, 'seed'>, session: number, phase: Phase, round: number, units: readonly string[]): string[] {
  return units.length < 2 ? [...units] : armOrder('balanced', { seed: d.seed, session, unit: UNITS, phase, round }, units);
}

export function sessionSteps(work: SessionWork, d: StepDesign): RoundStep[] {
  const steps: RoundStep[] = [];
  for (const unit of d.units) for (let r = 1; r <= d.preflight; r++) steps.push({ unit, phase: 'preflight', round: r, of: d.preflight });
  if (d.interleaveUnits === false) {
    for (const w of work.cohorts) {
      for (let r = 1; r <= d.warmupRounds; r++) steps.push({ unit: w.cohort, phase: 'warmup', round: r, of: d.warmupRounds });
      for (const r of w.rounds) steps.push({ unit: w.cohort, phase: 'formal', round: r, of: d.formalRounds });
    }
    return steps;
  }
  const units = work.cohorts.map((w) => w.cohort);
  for (let r = 1; r <= d.warmupRounds; r++)
    for (const unit of unitOrder(d, work.session, 'warmup', r, units)) steps.push({ unit, phase: 'warmup', round: r, of: d.warmupRounds });
  const todo = new Map(work.cohorts.map((w) => [w.cohort, new Set(w.rounds)]));
  const rounds = [...new Set(work.cohorts.flatMap((w) => w.rounds))].sort((a, b) => a - b);
  for (const r of rounds)
    for (const unit of unitOrder(d, work.session, 'formal', r, units))
      if (todo.get(unit)!.has(r)) steps.push({ unit, phase: 'formal', round: r, of: d.formalRounds });
  return steps;
}
