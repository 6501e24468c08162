import test from 'ava';
import { fixedDifferenceVerdict } from '../harness/analysis/difference-verdict.js';

const margin = { relative: 0.05, absoluteMs: 0 };

test('a detected difference is lower or higher by the sign of its observed value (made-up data)', (t) => {
  const d = { observed: -20, low: -30, high: -10, sessionLow: -35, sessionHigh: -5, detected: true };
  t.is(fixedDifferenceVerdict(d, 'difference', 100, margin).verdict, 'lower');
  t.is(fixedDifferenceVerdict({ ...d, observed: 1.2, low: 1.1, high: 1.3, sessionLow: null, sessionHigh: null }, 'ratio', null, margin).verdict, 'higher');
});

test('a difference not detected is equivalent only when both its intervals lie inside the margin of b, otherwise undecided (made-up data)', (t) => {
  const d = { observed: 0.5, low: -2, high: 3, sessionLow: -4, sessionHigh: 4.5, detected: false };
  t.is(fixedDifferenceVerdict(d, 'difference', 100, margin).verdict, 'equivalent');
  t.is(fixedDifferenceVerdict({ ...d, sessionHigh: 6 }, 'difference', 100, margin).verdict, 'undecided', 'the between-session interval reaches past 5 ms');
  t.is(fixedDifferenceVerdict(d, 'difference', null, margin).verdict, 'undecided', 'no reference median, no relative margin');
  t.is(fixedDifferenceVerdict(d, 'difference', 50, { relative: 0.05, absoluteMs: 10 }).verdict, 'equivalent', 'min_ms 10 widens the band to ±10 ms');
});

test('a summary difference not detected but inside the practical margin of b reads "equivalent within ±5%" with the band in ms and the interval it was decided on (made-up data)', async (t) => {
  const { differenceCell } = await import('../harness/report/launch-phrases.js');
  const d = {
    cohort: 'c',
    state: 'warm',
    metric: 'ready',
    a: 'x',
    b: 'y',
    observedMs: 1,
    lowMs: -2,
    highMs: 3,
    sessionLowMs: -3,
    sessionHighMs: 4,
    findings: { sessionsDisagreeInSize: false, direction: null, sizeUncertain: false },
  };
  const cell = (path: string): Record<string, unknown> => ({ cohort: 'c', path, state: 'warm', metric: 'ready', p50Ms: 100 });
  const a = { cells: [cell('x'), cell('y')], differences: [], orderEffects: [], rules: { practical: { relative: 0.05, absoluteMs: 0 } } };
  const text = differenceCell(a as never, { ...d, detected: false } as never, 1);
  t.true(text.endsWith('equivalent within ±5% = ±5.0 ms, decided on [−3.0%, +4.0%]'), text);
  t.true(differenceCell(a as never, { ...d, highMs: 8, detected: false } as never, 1).endsWith('not detected'));
});
