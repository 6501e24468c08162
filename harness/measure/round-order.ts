// Pure: the order of the commands within a round of `pipeline measure`. Each
// (seed, phase, round) gets its own seeded shuffle, so a resumed measurement
// reproduces the order of every round without replaying the generator.
import { seededRandom, shuffled } from '../stats/seeded-random.js';

export function measureRoundOrder(seed: string, phase: 'warmup' | 'formal', round: number, commands: number): number[] {
  return shuffled(
    Array.from({ length: commands }, (_, i) => i),
    seededRandom(`${seed}\u0000measure\u0000${phase}\u0000${round}`),
  );
}
