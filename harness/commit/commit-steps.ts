// Pure: the rounds of one commit-diff session for the round runner. Warmup
// rounds run on the smallest cell only (the largest take minutes and warm
// nothing the smallest does not); then each formal round visits every cell
// that still needs it, in an order shuffled per (seed, session, round), so a
// slow drift of the host never lines up with one cell. Within a cell the
// round runner orders the two engines (balanced by default).
import { randomOrder } from '../experiment/arm-order.js';
import type { SessionWork } from '../experiment/session-plan.js';
import type { RoundStep } from '../experiment/session-steps.js';

export function commitSteps(
  work: SessionWork,
  d: { seed: string; warmupRounds: number; formalRounds: number; cells: readonly string[]; smallest: string },
): RoundStep[] {
  const steps: RoundStep[] = [];
  for (let r = 1; r <= d.warmupRounds; r++) steps.push({ unit: d.smallest, phase: 'warmup', round: r, of: d.warmupRounds });
  const todo = new Map(work.cohorts.map((c) => [c.cohort, new Set(c.rounds)]));
  for (let round = 1; round <= d.formalRounds; round++) {
    const order = randomOrder({ seed: d.seed, session: work.session, unit: 'cells', phase: 'formal', round }, d.cells);
    for (const cell of order) if (todo.get(cell)?.has(round)) steps.push({ unit: cell, phase: 'formal', round, of: d.formalRounds });
  }
  return steps;
}
