import test from 'ava';
import { randomOrder } from '../harness/experiment/arm-order.js';
import { remainingWork } from '../harness/experiment/session-plan.js';

const PATHS = ['docker', 'lazy', 'oci-full'];
const roundOrder = (seed: string, session: number, unit: string, phase: string, round: number, arms: readonly string[]): string[] =>
  randomOrder({ seed, session, unit, phase, round }, arms);

test('random order: over 1000 seeded rounds of 3 paths each path leads about a third of the time (chi-square)', (t) => {
  const leads = new Map(PATHS.map((p) => [p, 0]));
  for (let r = 1; r <= 1000; r++) {
    const first = roundOrder('seed-a', 1, 'shell', 'formal', r, PATHS)[0]!;
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
      const p = roundOrder('seed-b', 1, 'numpy', 'formal', r, PATHS)[pos]!;
      counts.set(p, counts.get(p)! + 1);
    }
    const e = 1000 / 3;
    const chi2 = [...counts.values()].reduce((s, n) => s + (n - e) ** 2 / e, 0);
    t.true(chi2 < 9.21, `position ${pos}: chi-square ${chi2.toFixed(2)}`);
  }
});

test('the same seed gives the same order and another seed another sequence', (t) => {
  const seq = (seed: string): string[] => Array.from({ length: 50 }, (_, i) => roundOrder(seed, 1, 'shell', 'formal', i + 1, PATHS).join(','));
  t.deepEqual(seq('s1'), seq('s1'));
  t.notDeepEqual(seq('s1'), seq('s2'));
});

test('sessions of one seed differ in order', (t) => {
  const seq = (session: number): string => Array.from({ length: 20 }, (_, i) => roundOrder('s1', session, 'shell', 'formal', i + 1, PATHS).join(',')).join(';');
  t.not(seq(1), seq(2));
  t.is(seq(2), seq(2));
});

test('a round is complete only when every path has every state', (t) => {
  const rows = [
    { session: 1, cohort: 'c', round: 1, path: 'a', state: 'cold' },
    { session: 1, cohort: 'c', round: 1, path: 'a', state: 'warm' },
    { session: 1, cohort: 'c', round: 1, path: 'b', state: 'cold' },
    { session: 1, cohort: 'c', round: 1, path: 'b', state: 'warm' },
    { session: 1, cohort: 'c', round: 2, path: 'a', state: 'cold' },
  ];
  const w = remainingWork(rows, { sessions: 1, rounds: 3, cohorts: ['c'], paths: ['a', 'b'], states: ['cold', 'warm'] });
  t.deepEqual(w, [{ session: 1, cohorts: [{ cohort: 'c', rounds: [2, 3], partialRounds: [2], completeRounds: 1 }] }]);
});

test('resume continues the first incomplete session at its first incomplete round; complete sessions are skipped, later ones run whole', (t) => {
  const full = (session: number, round: number) =>
    ['a', 'b'].flatMap((path) => ['cold', 'warm'].map((state) => ({ session, cohort: 'c', round, path, state })));
  const rows = [...full(1, 1), ...full(1, 2), ...full(2, 1), { session: 2, cohort: 'c', round: 2, path: 'a', state: 'cold' }];
  const w = remainingWork(rows, { sessions: 3, rounds: 2, cohorts: ['c'], paths: ['a', 'b'], states: ['cold', 'warm'] });
  t.deepEqual(
    w.map((s) => s.session),
    [2, 3],
  );
  t.deepEqual(w[0]!.cohorts[0]!.rounds, [2]);
  t.deepEqual(w[0]!.cohorts[0]!.partialRounds, [2]);
  t.deepEqual(w[1]!.cohorts[0]!.rounds, [1, 2]);
});
