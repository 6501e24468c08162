// Pure: the rounds one session runs, in order: its preflight rounds for every
// unit (when it has one), then per unit its warmup rounds and the formal
// rounds it still has to run (session-plan.ts). Every experiment's scheduler
// walks this list (run-rounds.ts).
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
}

export function sessionSteps(work: SessionWork, d: StepDesign): RoundStep[] {
  const steps: RoundStep[] = [];
  for (const unit of d.units) for (let r = 1; r <= d.preflight; r++) steps.push({ unit, phase: 'preflight', round: r, of: d.preflight });
  for (const w of work.cohorts) {
    for (let r = 1; r <= d.warmupRounds; r++) steps.push({ unit: w.cohort, phase: 'warmup', round: r, of: d.warmupRounds });
    for (const r of w.rounds) steps.push({ unit: w.cohort, phase: 'formal', round: r, of: d.formalRounds });
  }
  return steps;
}
