// How an undecided negative control is worded (our own wording logic, made-up
// comparisons): the rule establishes no direction, but where an interval, or
// every session alone, already excludes 1, the sentence says so rather than
// "no direction".
import test from 'ava';
import { controlUndecided } from '../harness/sandbox/effect-phrases.js';
import type { MeasuredRow } from '../harness/sandbox/effect-table-md.js';

const floor = { minRatioChange: 0.05, minMs: 10 };
const row = (c: { low: number; high: number; sessionLow: number | null; sessionHigh: number | null; alone: number }): MeasuredRow =>
  ({
    row: { id: 'tmpfs-vs-cached-disk' },
    cell: { comparison: { ...c, sessions: 3, findings: { sessionsAloneExcluding: c.alone } } },
  }) as unknown as MeasuredRow;

test('a control whose two-level interval and every session alone exclude 1 says so, though the rule establishes no direction', (t) => {
  const s = controlUndecided(row({ low: 1.015, high: 1.18, sessionLow: 0.95, sessionHigh: 1.25, alone: 3 }), floor);
  t.is(
    s,
    'The negative control `tmpfs-vs-cached-disk` is undecided: the rule establishes no direction, though its two-level interval excludes 1 and 3 of 3 sessions alone exclude it on the same side; its intervals reach beyond ±5%, so it cannot vouch for the rows.',
  );
});

test('a control whose intervals all reach 1 is undecided with no more said', (t) => {
  const s = controlUndecided(row({ low: 0.97, high: 1.08, sessionLow: 0.9, sessionHigh: 1.12, alone: 0 }), floor);
  t.is(
    s,
    'The negative control `tmpfs-vs-cached-disk` is undecided: the rule establishes no direction; its intervals reach beyond ±5%, so it cannot vouch for the rows.',
  );
});
