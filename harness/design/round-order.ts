// Pure: the order of paths within a round. Each (seed, cohort, phase, round)
// gets its own seeded shuffle, so a resumed session reproduces the order of
// every round without replaying the generator from the start.
import { seededRandom, shuffled } from '../stats/seeded-random.js';

export function roundOrder(seed: string, cohort: string, phase: string, round: number, paths: readonly string[]): string[] {
  return shuffled(paths, seededRandom(`${seed}\u0000${cohort}\u0000${phase}\u0000${round}`));
}
