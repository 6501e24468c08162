// The state of seeded-random.ts's generator as a plain number, for hot loops
// that step it inline (a closure call per draw costs about as much as the
// rest of a bootstrap draw). The step, written out where it is used:
//
//   state = (state + 0x6d2b79f5) | 0;
//   let t = Math.imul(state ^ (state >>> 15), state | 1);
//   t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
//   const u = ((t ^ (t >>> 14)) >>> 0) / 4294967296; // random()
//
// gives the numbers seededRandom(seed) gives, in order (the state is kept
// as a signed 32-bit integer here, unsigned there: the same bits, and every
// operation on it converts to 32 bits first). seeded-random.ts is part of the
// published sample-stage key, so it is not changed; this file repeats its seed
// hash, and test/stats-mulberry32-state.test.ts holds the two streams equal.

/** The generator's initial state for a seed, as seededRandom(seed) derives it. */
export function mulberry32State(seed: string | number): number {
  if (typeof seed === 'number') return seed | 0;
  // FNV-1a 32-bit
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}
