// "equivalent" as a reader can check it (harness/comparison/equivalence-words.ts):
// the band in % and in ms, the interval it was decided on, and a band the
// ms floor widened past the cap said in ms, with its cause.
import test from 'ava';
import { EQUIVALENCE_CAP, equivalenceWords } from '../harness/comparison/equivalence-words.js';
import { marginHalfWidth } from '../harness/analysis/comparison-verdict.js';

test('a band of the relative margin is said in % and in ms of b, with the interval it was decided on', (t) => {
  t.is(equivalenceWords({ marginRelative: 0.05 }, 400, { low: -0.021, high: 0.03 }), 'equivalent within ±5% = ±20.0 ms, decided on [−2.1%, +3.0%]');
});

test("a band the 10 ms floor widened past the cap is said in ms first, with its share and cause: the published default's 38.1 ms case", (t) => {
  const half = marginHalfWidth({ relative: 0.05, absoluteMs: 10 }, 38.1);
  t.true(half > EQUIVALENCE_CAP);
  const words = equivalenceWords({ marginRelative: half }, 38.1, { low: -0.207, high: 0.103 });
  t.is(words, "equivalent within ±10.0 ms = 26% of b's 38.1 ms (the min_ms floor), decided on [−20.7%, +10.3%]");
  t.notRegex(words, /^equivalent within ±26%/);
});

test('a ratio without a median in ms is said in % alone', (t) => {
  t.is(equivalenceWords({ marginRelative: 0.05 }, null, null), 'equivalent within ±5%');
});
