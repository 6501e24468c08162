import test from 'ava';
import { williamsRows } from '../harness/experiment/williams-design.js';
import { armOrder } from '../harness/experiment/arm-order.js';

/** Counts of (arm, position) and of (previous arm, arm) over the given orders. */
function balanceCounts(orders: readonly (readonly string[])[]): { positions: Map<string, number>; pairs: Map<string, number> } {
  const positions = new Map<string, number>();
  const pairs = new Map<string, number>();
  const add = (m: Map<string, number>, k: string): void => void m.set(k, (m.get(k) ?? 0) + 1);
  for (const o of orders) {
    o.forEach((arm, i) => {
      add(positions, `${arm}@${i}`);
      if (i > 0) add(pairs, `${o[i - 1]}>${arm}`);
    });
  }
  return { positions, pairs };
}

for (const n of [2, 3, 4, 5, 6]) {
  test(`a Williams design of ${n} arms puts every arm equally often in each position and after each other arm`, (t) => {
    const rows = williamsRows(n).map((r) => r.map(String));
    t.is(rows.length, n % 2 === 0 ? n : 2 * n);
    for (const r of rows) t.deepEqual([...r].sort(), Array.from({ length: n }, (_, i) => String(i)).sort(), 'each row is a permutation');
    const { positions, pairs } = balanceCounts(rows);
    const perPosition = rows.length / n;
    t.is(positions.size, n * n, 'every arm stands in every position');
    for (const [k, c] of positions) t.is(c, perPosition, `arm@position ${k}`);
    const perPair = (rows.length * (n - 1)) / (n * (n - 1));
    t.is(pairs.size, n * (n - 1), 'every ordered pair of distinct arms occurs');
    for (const [k, c] of pairs) t.is(c, perPair, `pair ${k}`);
  });
}

test('balanced order: every full cycle of rounds of a session is a complete Williams design of the named arms', (t) => {
  const arms = ['docker', 'lazy', 'oci-full', 'gvisor-lazy', 'gvisor-full'];
  const cycle = 10; // 2n for n = 5
  for (const session of [1, 2, 3]) {
    for (let c = 0; c < 3; c++) {
      const orders = Array.from({ length: cycle }, (_, i) =>
        armOrder('balanced', { seed: 'seed-x', session, unit: 'numpy', phase: 'formal', round: c * cycle + i + 1 }, arms),
      );
      const { positions, pairs } = balanceCounts(orders);
      for (const a of arms) for (let p = 0; p < arms.length; p++) t.is(positions.get(`${a}@${p}`), 2, `session ${session} cycle ${c}: ${a} at ${p}`);
      for (const a of arms) for (const b of arms) if (a !== b) t.is(pairs.get(`${a}>${b}`), 2, `session ${session} cycle ${c}: ${a} before ${b}`);
    }
  }
});

test('balanced order is reproducible from the seed and differs between sessions and seeds', (t) => {
  const arms = ['a', 'b', 'c', 'd'];
  const seq = (seed: string, session: number): string =>
    Array.from({ length: 8 }, (_, i) => armOrder('balanced', { seed, session, unit: 'u', phase: 'formal', round: i + 1 }, arms).join('')).join(';');
  t.is(seq('s', 1), seq('s', 1));
  t.not(seq('s', 1), seq('s', 2));
  t.not(seq('s', 1), seq('t', 1));
});

for (const n of [3, 5]) {
  test(`balanced order of ${n} arms (odd): the first ${n} rounds of every cycle hold every arm once in each position`, (t) => {
    const arms = Array.from({ length: n }, (_, i) => `p${i}`);
    for (const session of [1, 2, 3]) {
      for (const cycle of [0, 1]) {
        const orders = Array.from({ length: n }, (_, r) =>
          armOrder('balanced', { seed: 'half-cycle', session, unit: 'u', phase: 'formal', round: cycle * 2 * n + r + 1 }, arms),
        );
        const { positions } = balanceCounts(orders);
        t.is(positions.size, n * n, `session ${session} cycle ${cycle}: every arm in every position`);
        for (const [k, c] of positions) t.is(c, 1, `session ${session} cycle ${cycle}: ${k}`);
      }
    }
  });
}
