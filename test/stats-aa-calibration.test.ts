// The A/A machinery on made-up data (the generator below is ours, the rule and
// intervals are the project's): two identical distributions, so every
// detection is a false positive.
import test from 'ava';
import { aaDetected, aaRate } from '../harness/stats/aa-calibration.js';
import { clopperPearson } from '../harness/stats/clopper-pearson.js';
import { seededRandom } from '../harness/stats/seeded-random.js';
import type { SessionRow } from '../harness/stats/two-level-bootstrap.js';

function identicalRuns(runs: number, sessions: number, rounds: number, sessionSd: number): SessionRow[][] {
  const out: SessionRow[][] = [];
  for (let i = 0; i < runs; i++) {
    const random = seededRandom(`aa-made-up|${i}`);
    const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const rows: SessionRow[] = [];
    for (let s = 1; s <= sessions; s++) {
      const offset = sessionSd * normal(); // a session moves both names alike: they are one path
      for (let r = 1; r <= rounds; r++) {
        rows.push({ session: s, round: r, path: 'a', value: 10 + offset + normal() });
        rows.push({ session: s, round: r, path: 'b', value: 10 + offset + normal() });
      }
    }
    out.push(rows);
  }
  return out;
}

const options = (i: number) => ({ resamples: 1000, confidence: 0.95, seed: `aa-test|${i}` });

test('with one session, identical distributions are called detected at a rate whose 99.9% binomial interval holds the nominal 5%', (t) => {
  const verdicts = identicalRuns(400, 1, 20, 0).map((rows, i) => aaDetected(rows, 'a', 'b', 1, options(i)));
  const rate = aaRate(verdicts, 1, 0.999);
  t.true(rate.low <= 0.05 && 0.05 <= rate.high, `${rate.successes}/${rate.trials} detected, 99.9% interval [${rate.low}, ${rate.high}]`);
});

test('with three sessions the rule, which also needs the between-session t interval, fires no more often than the nominal 5%', (t) => {
  const verdicts = identicalRuns(400, 3, 10, 0.5).map((rows, i) => aaDetected(rows, 'a', 'b', 3, options(i)));
  const rate = aaRate(verdicts, 3, 0.999);
  t.true(rate.low <= 0.05, `${rate.successes}/${rate.trials} detected, 99.9% interval [${rate.low}, ${rate.high}]`);
});

test('the K = 1 verdict uses the first session only: a shift in session 2 alone is not seen', (t) => {
  const shifted = (session: number): SessionRow[] =>
    identicalRuns(1, 2, 20, 0)[0]!.map((r) => (r.session === session && r.path === 'a' ? { ...r, value: r.value + 100 } : r));
  t.false(aaDetected(shifted(2), 'a', 'b', 1, options(0)));
  t.true(aaDetected(shifted(1), 'a', 'b', 1, options(0)));
});

test('the rate is the share of true verdicts with its Clopper-Pearson interval', (t) => {
  const r = aaRate([true, false, false, false], 3);
  t.is(r.sessions, 3);
  t.is(r.rate, 0.25);
  t.deepEqual([r.low, r.high], [clopperPearson(1, 4).low, clopperPearson(1, 4).high]);
});
