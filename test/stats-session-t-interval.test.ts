import test from 'ava';
import { sessionTInterval } from '../harness/stats/session-t-interval.js';

// t(0.975, 2) = 4.302652729749464 and t(0.95, 4) = 2.131846786326649 (scipy.stats.t.ppf).
test("the between-session interval is the mean ± Student's t (K - 1 df) · sd / √K of the per-session differences", (t) => {
  const r = sessionTInterval([-2.085, -4.302, -7.321], 0.95)!;
  const mean = (-2.085 - 4.302 - 7.321) / 3;
  const sd = Math.sqrt(((-2.085 - mean) ** 2 + (-4.302 - mean) ** 2 + (-7.321 - mean) ** 2) / 2);
  t.is(r.degreesOfFreedom, 2);
  t.true(Math.abs(r.mean - mean) < 1e-12);
  t.true(Math.abs(r.low - (mean - (4.302652729749464 * sd) / Math.sqrt(3))) < 1e-6, String(r.low));
  t.true(Math.abs(r.high - (mean + (4.302652729749464 * sd) / Math.sqrt(3))) < 1e-6, String(r.high));
  t.true(r.containsZero, 'the shell warm oci-full − lazy sessions of the published run: about [−11.1, 2.0]');
  const five = sessionTInterval([10, 12, 11, 13, 9], 0.9)!;
  t.true(Math.abs(five.high - five.mean - (2.131846786326649 * Math.sqrt(2.5)) / Math.sqrt(5)) < 1e-6);
  t.false(five.containsZero);
});

test('with fewer than 3 sessions, or a session without a value, there is no between-session interval', (t) => {
  t.is(sessionTInterval([], 0.95), null);
  t.is(sessionTInterval([1, 2], 0.95), null);
  t.is(sessionTInterval([1, Number.NaN, 3], 0.95), null);
});
