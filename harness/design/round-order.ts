// Pure: the order of paths within a round. Each (seed, session, cohort, phase,
// round) gets its own seeded shuffle, so sessions differ in order and a resumed
// session reproduces the order of every round without replaying the generator.
import { seededRandom, shuffled } from '../stats/seeded-random.js';

export function roundOrder(seed: string, session: number, cohort: string, phase: string, round: number, paths: readonly string[]): string[] {
  // Session 1 keeps the order of designs that had one session.
  const s = session === 1 ? '' : `\u0000s${session}`;
  return shuffled(paths, seededRandom(`${seed}${s}\u0000${cohort}\u0000${phase}\u0000${round}`));
}
