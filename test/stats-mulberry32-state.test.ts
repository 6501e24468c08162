import test from 'ava';
import { mulberry32State } from '../harness/stats/mulberry32-state.js';
import { seededRandom } from '../harness/stats/seeded-random.js';

/** The step written out in mulberry32-state.ts's header, as the hot loops use it. */
function inlineStream(seed: string | number, n: number): number[] {
  let state = mulberry32State(seed);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out.push(((t ^ (t >>> 14)) >>> 0) / 4294967296);
  }
  return out;
}

for (const seed of ['lazy-startup-2026|shell|cold|ready|docker|lazy', '', 'benchgraph', 0, 42, 4294967295, -1, 2.5]) {
  test(`the inline generator step gives seededRandom's numbers for seed ${JSON.stringify(seed)}`, (t) => {
    const random = seededRandom(seed);
    const expected = Array.from({ length: 10000 }, () => random());
    t.deepEqual(inlineStream(seed, 10000), expected);
  });
}
