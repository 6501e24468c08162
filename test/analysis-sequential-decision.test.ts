import test from 'ava';
import { sequentialDecision } from '../harness/analysis/sequential-decision.js';
import { defaultSequentialPlan } from '../harness/stats/sequential-session-interval.js';

const plan = defaultSequentialPlan;

test('before the first look the decision is to go on (made-up data)', (t) => {
  const d = sequentialDecision([0.5, 0.5], plan, 0.05);
  t.is(d.interval, null);
  t.false(d.stop);
  t.is(d.verdict, 'undecided');
});

test('sessions that agree on a large difference stop at the first look with its direction (made-up data)', (t) => {
  const d = sequentialDecision([0.4, 0.41, 0.39], plan, 0.05);
  t.true(d.stop);
  t.is(d.verdict, 'higher');
});

test('sessions that agree on no difference stop as equivalent once the interval lies inside the margin (made-up data)', (t) => {
  const d = sequentialDecision([0.001, -0.002, 0.0, 0.002, -0.001], plan, 0.05);
  t.is(d.verdict, 'equivalent');
  t.true(d.stop);
});

test('an undecided comparison goes on until the last look and then stops undecided (made-up data)', (t) => {
  const noisy = [0.3, -0.3, 0.2, -0.25, 0.28, -0.2, 0.31, -0.3, 0.22, -0.27, 0.3, -0.29];
  t.false(sequentialDecision(noisy.slice(0, 11), plan, 0.05).stop);
  const last = sequentialDecision(noisy, plan, 0.05);
  t.true(last.stop);
  t.is(last.verdict, 'undecided');
});
