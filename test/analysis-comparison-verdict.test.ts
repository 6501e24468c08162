import test from 'ava';
import { comparisonVerdict, marginHalfWidth, relativeFromLog } from '../harness/analysis/comparison-verdict.js';
import { verdictText } from '../harness/comparison/verdict-words.js';
import { practicalMargin } from '../harness/config/practical-margin.js';

test('an interval below 0 is lower, above 0 higher, inside the margin equivalent, and otherwise undecided', (t) => {
  t.is(comparisonVerdict({ low: -0.3, high: -0.1 }, 0.05).verdict, 'lower');
  t.is(comparisonVerdict({ low: 0.1, high: 0.3 }, 0.05).verdict, 'higher');
  t.is(comparisonVerdict({ low: -0.03, high: 0.04 }, 0.05).verdict, 'equivalent');
  t.is(comparisonVerdict({ low: -0.03, high: 0.07 }, 0.05).verdict, 'undecided');
  t.is(comparisonVerdict(null, 0.05).verdict, 'undecided');
});

test('a direction whose interval also lies inside the margin keeps its direction and says it is within the margin', (t) => {
  const v = comparisonVerdict({ low: -0.04, high: -0.01 }, 0.05);
  t.is(v.verdict, 'lower');
  t.true(v.withinMargin);
  t.is(verdictText(v), 'lower, by less than 5%');
  t.is(verdictText(comparisonVerdict({ low: -0.01, high: 0.01 }, 0.05)), 'equivalent within ±5%');
});

test('the margin is the larger of analysis.practical min_ratio_change and min_ms over the reference median', (t) => {
  const m = practicalMargin({ min_ratio_change: 0.02, min_ms: 5 });
  t.deepEqual(m, { relative: 0.02, absoluteMs: 5 });
  t.is(marginHalfWidth(m, 1000), 0.02);
  t.is(marginHalfWidth(m, 100), 0.05);
  t.is(marginHalfWidth(m, null), 0.02);
  t.deepEqual(practicalMargin(undefined), { relative: 0.05, absoluteMs: 10 });
});

test('an interval of the mean log ratio becomes an interval of a / b - 1 through exp', (t) => {
  const r = relativeFromLog({ low: Math.log(0.9), high: Math.log(1.2) });
  t.true(Math.abs(r.low + 0.1) < 1e-12 && Math.abs(r.high - 0.2) < 1e-12);
});
