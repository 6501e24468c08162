import test from 'ava';
import { roundOrder } from '../harness/design/round-order.js';
import { cohortProgress, remainingRounds } from '../harness/design/session-plan.js';

const PATHS = ['docker', 'lazy', 'oci-full'];

test('over 1000 seeded rounds of 3 paths each path leads about a third of the time (chi-square)', (t) => {
  const leads = new Map(PATHS.map((p) => [p, 0]));
  for (let r = 1; r <= 1000; r++) {
    const first = roundOrder('seed-a', 'shell', 'formal', r, PATHS)[0]!;
    leads.set(first, leads.get(first)! + 1);
  }
  const expected = 1000 / 3;
  const chi2 = [...leads.values()].reduce((s, n) => s + (n - expected) ** 2 / expected, 0);
  // 2 degrees of freedom: P(chi2 > 9.21) = 0.01
  t.true(chi2 < 9.21, `chi-square ${chi2.toFixed(2)} for leads ${JSON.stringify([...leads])}`);
});

test('every position is equally likely for every path over 1000 rounds (chi-square per position)', (t) => {
  for (let pos = 0; pos < PATHS.length; pos++) {
    const counts = new Map(PATHS.map((p) => [p, 0]));
    for (let r = 1; r <= 1000; r++) {
      const p = roundOrder('seed-b', 'numpy', 'formal', r, PATHS)[pos]!;
      counts.set(p, counts.get(p)! + 1);
    }
    const e = 1000 / 3;
    const chi2 = [...counts.values()].reduce((s, n) => s + (n - e) ** 2 / e, 0);
    t.true(chi2 < 9.21, `position ${pos}: chi-square ${chi2.toFixed(2)}`);
  }
});

test('the same seed gives the same order and another seed another sequence', (t) => {
  const seq = (seed: string): string[] => Array.from({ length: 50 }, (_, i) => roundOrder(seed, 'shell', 'formal', i + 1, PATHS).join(','));
  t.deepEqual(seq('s1'), seq('s1'));
  t.notDeepEqual(seq('s1'), seq('s2'));
});

test('a round is complete only when every path has every state', (t) => {
  const rows = [
    { round: 1, path: 'a', state: 'cold' },
    { round: 1, path: 'a', state: 'warm' },
    { round: 1, path: 'b', state: 'cold' },
    { round: 1, path: 'b', state: 'warm' },
    { round: 2, path: 'a', state: 'cold' },
  ];
  const p = cohortProgress(rows, ['a', 'b'], ['cold', 'warm']);
  t.deepEqual([...p.completeRounds], [1]);
  t.deepEqual([...p.partialRounds], [2]);
  t.deepEqual(remainingRounds(3, p), [2, 3]);
});
