import test from 'ava';
import { execFileSync } from 'node:child_process';
import { logRatioInterval } from '../harness/history/log-ratio-interval.js';

const before = [389.5, 279.98, 907.37, 355.45, 277.61, 301.2];
const after = [1612.3, 1580.9, 1702.4, 1655.0, 1598.7, 1621.1];

test('the ratio interval equals exp of SciPy’s Welch t interval of the difference of log session medians', (t) => {
  const script = [
    'import json, sys, numpy as np',
    'from scipy import stats',
    'b, a = (np.log(np.array(v)) for v in json.loads(sys.argv[1]))',
    'r = stats.ttest_ind(a, b, equal_var=False)',
    'ci = r.confidence_interval(0.95)',
    'print(json.dumps([float(np.exp(a.mean() - b.mean())), float(np.exp(ci.low)), float(np.exp(ci.high)), float(r.df)]))',
  ].join('\n');
  const [ratio, low, high, df] = JSON.parse(execFileSync('python3', ['-c', script, JSON.stringify([before, after])], { encoding: 'utf8' })) as number[];
  const ours = logRatioInterval(before, after, 0.95)!;
  t.true(Math.abs(ours.ratio - ratio!) < 1e-9 * ratio!);
  t.true(Math.abs(ours.low - low!) < 1e-6 * low!, `${ours.low} vs ${low}`);
  t.true(Math.abs(ours.high - high!) < 1e-6 * high!, `${ours.high} vs ${high}`);
  t.true(Math.abs(ours.degreesOfFreedom - df!) < 1e-9 * df!);
});

test('a side with one session gives no ratio interval', (t) => {
  t.is(logRatioInterval([300], after, 0.95), null);
});
