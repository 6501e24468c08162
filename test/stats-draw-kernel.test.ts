import test from 'ava';
import { drawKernel, kernelMemory, stepped } from '../harness/stats/draw-kernel.js';
import { mulberry32State } from '../harness/stats/mulberry32-state.js';
import { randomInt, seededRandom } from '../harness/stats/seeded-random.js';
import { CLI_NODE_FLAGS } from '../harness/process/cli-argv.js';

// The plain draws the kernel stands for: randomInt(n) of seededRandom, in order.
function plainIndices(seed: string, n: number, draws: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: draws }, () => randomInt(random, n));
}

test('Node 20 runs the SIMD draw kernel (else the bootstraps fall back to the plain loop)', (t) => {
  t.not(drawKernel(), null);
});

for (const [n, draws] of [
  [1, 4],
  [7, 8],
  [2778, 2776],
  [100003, 100000],
] as const) {
  test(`the kernel counts the indices randomInt draws, in order, and steps the state as many times (${draws} draws in ${n})`, (t) => {
    const k = drawKernel()!;
    const seed = `kernel|${n}`;
    const pivot = (n - 1) >> 1;
    const memory = kernelMemory(k, 16 + 4 * n);
    const counts = new Int32Array(memory, 16, n);
    counts.fill(0);
    const under = k.counted(mulberry32State(seed), n, draws, 16, pivot);
    const expected = new Int32Array(n);
    const indices = plainIndices(seed, n, draws + 1);
    for (const j of indices.slice(0, draws)) expected[j]!++;
    t.deepEqual([...counts], [...expected]);
    t.is(under, indices.slice(0, draws).filter((j) => j < pivot).length);
    // the state after the kernel's draws gives the next plain draw
    const after = stepped(mulberry32State(seed), draws);
    const next = (after + 0x6d2b79f5) | 0;
    let h = Math.imul(next ^ (next >>> 15), next | 1);
    h ^= h + Math.imul(h ^ (h >>> 7), h | 61);
    t.is(((((h ^ (h >>> 14)) >>> 0) / 4294967296) * n) | 0, indices[draws]!);
  });
}

test('the rounds kernel counts rounds first + randomInt(n) and adds up their table bytes and half bytes', (t) => {
  const k = drawKernel()!;
  const [first, n, total, draws] = [37, 501, 600, 500];
  const memory = kernelMemory(k, 16 + 5 * total);
  const counts = new Int32Array(memory, 16, total);
  const table = new Uint8Array(memory, 16 + 4 * total, total);
  const sums = new Int32Array(memory, 0, 2);
  counts.fill(0);
  for (let r = 0; r < total; r++) table[r] = (r * 7 + (r >> 3)) % 4;
  sums[0] = 5; // the kernel adds to what is there
  sums[1] = 1;
  k.rounds(mulberry32State('rounds'), n, draws, first, 16, 16 + 4 * total, 0);
  const expected = new Int32Array(total);
  let sum = 5;
  let high = 1;
  for (const j of plainIndices('rounds', n, draws)) {
    expected[first + j]!++;
    sum += table[first + j]!;
    high += table[first + j]! >> 1;
  }
  t.deepEqual([...counts], [...expected]);
  t.deepEqual([...sums], [sum, high]);
});

test('without the kernel (BENCHGRAPH_DRAW_KERNEL=0) the two-level and ratio bootstraps give the same numbers (made-up data)', async (t) => {
  const { execFileSync } = await import('node:child_process');
  const script = `
    const { twoLevelBootstrap } = await import(${JSON.stringify(new URL('../harness/stats/two-level-bootstrap.js', import.meta.url).href)});
    const { ratioOfMedians } = await import(${JSON.stringify(new URL('../harness/stats/ratio-of-medians.js', import.meta.url).href)});
    const { drawKernel } = await import(${JSON.stringify(new URL('../harness/stats/draw-kernel.js', import.meta.url).href)});
    let s = 11;
    const next = () => (s = (s * 16807) % 2147483647) / 2147483647;
    const sessions = [203, 57, 130].map((n, i) => ({ session: i + 1, rounds: Array.from({ length: n }, () => ({ a: [100 + 20 * next()], b: [90 + 20 * next()] })) }));
    const o = { resamples: 301, confidence: 0.95, seed: 'fallback' };
    const num = Array.from({ length: 1001 }, () => 100 + 30 * next());
    const den = Array.from({ length: 998 }, () => 95 + 30 * next());
    console.log(JSON.stringify({ kernel: drawKernel() !== null, two: twoLevelBootstrap(sessions, o), ratio: ratioOfMedians(num, den, o) }));`;
  const run = (flag: string): { kernel: boolean; two: unknown; ratio: unknown } =>
    JSON.parse(
      execFileSync(process.execPath, [...CLI_NODE_FLAGS, '--input-type=module', '-e', script], {
        env: { ...process.env, BENCHGRAPH_DRAW_KERNEL: flag },
        encoding: 'utf8',
      }),
    );
  const withKernel = run('1');
  const plain = run('0');
  t.true(withKernel.kernel);
  t.false(plain.kernel);
  t.deepEqual(plain.two, withKernel.two);
  t.deepEqual(plain.ratio, withKernel.ratio);
});
