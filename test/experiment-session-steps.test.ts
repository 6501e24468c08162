// The rounds of a session interleave the units: round r of every unit before round r + 1 of any,
// the units' order within rounds balanced (each unit equally often first).
import test from 'ava';
import { sessionSteps, unitOrder } from '../harness/experiment/session-steps.js';
import type { CohortWork } from '../harness/experiment/session-plan.js';

const work = (cohort: string, rounds: number[]): CohortWork => ({ cohort, rounds, partialRounds: [], completeRounds: 0 });

const design = { preflight: 0, warmupRounds: 2, formalRounds: 4, seed: 'steps-test' };

test('every unit runs round r before any unit runs round r + 1, warmup included', (t) => {
  const units = ['shell', 'numpy'];
  const steps = sessionSteps({ session: 1, cohorts: units.map((cohort) => work(cohort, [1, 2, 3, 4])) }, { ...design, units });
  t.is(steps.length, 2 * 2 + 2 * 4);
  const key = (s: (typeof steps)[number]) => (s.phase === 'warmup' ? 0 : 10) + s.round;
  for (let i = 1; i < steps.length; i++) t.true(key(steps[i - 1]!) <= key(steps[i]!), `step ${i}: ${JSON.stringify(steps[i])}`);
  for (const phase of ['warmup', 'formal'] as const)
    for (const unit of units) t.is(steps.filter((s) => s.phase === phase && s.unit === unit).length, phase === 'warmup' ? 2 : 4);
});

test('the units take each place of a round equally often over a complete cycle of the balanced design', (t) => {
  for (const units of [
    ['a', 'b'],
    ['a', 'b', 'c'],
  ]) {
    const rounds = 2 * units.length;
    const first = new Map<string, number>();
    for (let r = 1; r <= rounds; r++) {
      const order = unitOrder(design, 1, 'formal', r, units);
      t.deepEqual([...order].sort(), units);
      first.set(order[0]!, (first.get(order[0]!) ?? 0) + 1);
    }
    t.deepEqual(
      [...first.values()],
      units.map(() => 2),
      `${units.length} units over ${rounds} rounds`,
    );
  }
});

test('the order is the seed’s: the same for the same seed and session, and a resumed session repeats it', (t) => {
  const units = ['a', 'b', 'c'];
  const orders = (seed: string, session: number) => [1, 2, 3, 4, 5, 6].map((r) => unitOrder({ seed }, session, 'formal', r, units).join(''));
  t.deepEqual(orders('x', 2), orders('x', 2));
  t.notDeepEqual(
    [1, 2, 3, 4, 5].map((s) => orders('x', s).join(' ')),
    [1, 2, 3, 4, 5].map((s) => orders('y', s).join(' ')),
  );
});

test('an added session that owes one unit fewer rounds visits it only in the rounds it owes', (t) => {
  const steps = sessionSteps(
    {
      session: 4,
      cohorts: [work('shell', [3, 4]), work('numpy', [1, 2, 3, 4])],
    },
    { ...design, warmupRounds: 0, units: ['shell', 'numpy'] },
  );
  t.deepEqual(
    steps.filter((s) => s.unit === 'shell').map((s) => s.round),
    [3, 4],
  );
  t.deepEqual(
    steps.map((s) => s.round),
    [1, 2, 3, 3, 4, 4],
  );
});

test('preflight rounds cover every unit of the experiment, in the experiment’s order, before any warmup', (t) => {
  const steps = sessionSteps({ session: 2, cohorts: [work('b', [1])] }, { ...design, preflight: 1, units: ['a', 'b'] });
  t.deepEqual(
    steps.map((s) => `${s.phase}:${s.unit}`),
    ['preflight:a', 'preflight:b', 'warmup:b', 'warmup:b', 'formal:b'],
  );
});

test('units with a setup run once a session keep their rounds in one block, in the experiment’s order', (t) => {
  const steps = sessionSteps(
    { session: 1, cohorts: [work('row-a', [1, 2]), work('row-b', [1, 2])] },
    { ...design, warmupRounds: 1, formalRounds: 2, units: ['row-a', 'row-b'], interleaveUnits: false },
  );
  t.deepEqual(
    steps.map((s) => `${s.unit}:${s.phase}:${s.round}`),
    ['row-a:warmup:1', 'row-a:formal:1', 'row-a:formal:2', 'row-b:warmup:1', 'row-b:formal:1', 'row-b:formal:2'],
  );
});
