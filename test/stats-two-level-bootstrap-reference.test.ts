import test from 'ava';
import { referenceTwoLevel } from './helpers/reference-bootstrap.js';
import { seededRandom } from '../harness/stats/seeded-random.js';
import { twoLevelBootstrap, type PairedSession } from '../harness/stats/two-level-bootstrap.js';

/** Seeded made-up sessions: uneven rounds, ties (values on a 5 ms grid), some rounds with two values or none of a path. */
function madeUpSessions(seed: string, sessions: number, rounds: number, shift: number): PairedSession[] {
  const random = seededRandom(seed);
  const value = (level: number): number => Math.round((level * Math.exp(0.2 * (random() - 0.5))) / 5) * 5;
  return Array.from({ length: sessions }, (_, s) => ({
    session: s + 1,
    rounds: Array.from({ length: rounds + s * 7 }, () => {
      const u = random();
      const a = u < 0.05 ? [] : u < 0.15 ? [value(400 + shift * s), value(400)] : [value(400 + shift * s)];
      const b = random() < 0.1 ? [value(380), value(380)] : [value(380)];
      return { a, b };
    }),
  }));
}

/** Seeded made-up sessions of rounds with exactly one value of each path (the fast path's packed case). */
function singleValueSessions(seed: string, sessions: number, rounds: number): PairedSession[] {
  const random = seededRandom(seed);
  return Array.from({ length: sessions }, (_, s) => ({
    session: s + 1,
    rounds: Array.from({ length: rounds }, () => ({ a: [Math.round(300 + 40 * random() + 5 * s)], b: [Math.round(290 + 40 * random())] })),
  }));
}

const cases = [
  { name: 'three sessions of one value per path and round', sessions: singleValueSessions('fast-single', 3, 50) },
  { name: 'one session', sessions: madeUpSessions('fast-1', 1, 60, 0) },
  { name: 'three sessions', sessions: madeUpSessions('fast-3', 3, 40, 15) },
  { name: 'five sessions', sessions: madeUpSessions('fast-5', 5, 25, -10) },
];

for (const c of cases) {
  for (const statistic of ['difference', 'ratio'] as const) {
    test(`the two-level bootstrap (pivot walks, inline generator) gives the numbers of a plain sort-based reference (${c.name}, ${statistic}, made-up data)`, (t) => {
      const options = { resamples: 1500, confidence: 0.9, seed: `seed|${c.name}|${statistic}` };
      const fast = twoLevelBootstrap(c.sessions, options, statistic);
      const ref = referenceTwoLevel(c.sessions, options.resamples, options.confidence, options.seed, statistic);
      t.deepEqual(
        { observed: fast.observed, perSession: fast.perSession.map((s) => s.observed), low: fast.low, high: fast.high },
        { observed: ref.observed, perSession: ref.perSession, low: ref.low, high: ref.high },
      );
      t.true(fast.low! < fast.high!, 'the interval has width: the check compares real resamples');
    });
  }
}

test('the two-level bootstrap of sessions without a complete round gives no interval', (t) => {
  const sessions: PairedSession[] = [{ session: 1, rounds: [{ a: [1], b: [] }] }];
  const options = { resamples: 10, confidence: 0.95, seed: 'none' };
  t.is(twoLevelBootstrap(sessions, options).low, null);
  t.is(twoLevelBootstrap(sessions, options).sessions, 0);
});
