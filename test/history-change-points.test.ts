import test from 'ava';
import { cellChanges } from '../harness/history/change-points.js';

test('a significant change with one run on a side is dropped, and the change next to it is judged again on the wider sides and reported', (t) => {
  // 100 for four runs, one run at 200, then 300: E-divisive finds 5 and 6; run 5 alone (2 sessions) has no interval
  const perRun = [
    [100, 101],
    [100, 102],
    [100, 99],
    [100, 101],
    [200, 201],
    [300, 301],
    [300, 302],
    [300, 299],
    [301, 300],
  ];
  const changes = cellChanges(perRun, 'drop-test');
  t.deepEqual(
    changes.map((c) => [c.run, c.reported]),
    [
      [5, true],
      [6, false],
    ],
  );
  t.like(changes[0], { before: { fromRun: 1, toRun: 4 }, after: { fromRun: 5, toRun: 9 } });
  t.regex(changes[1]!.why!, /fewer than 3 sessions/);
});

test('a significant change whose sides overlap is listed but not reported', (t) => {
  // one session at 400 before the step widens the t interval of the earlier side past the later mean
  const perRun = [
    [100, 102],
    [101, 99],
    [100, 400],
    [98, 101],
    [130, 131],
    [129, 132],
    [130, 128],
    [131, 130],
  ];
  const changes = cellChanges(perRun, 'overlap-test');
  t.is(changes.length, 1);
  t.true(changes[0]!.pValue <= 0.05);
  t.false(changes[0]!.reported);
  t.is(changes[0]!.why, 'the intervals of the two sides overlap');
});
