// The open-loop table of a burst run (harness/burst/open-loop.ts) on made-up
// rows: a test of our own logic. Trains of 3 launches at 10/s: in flight
// counts a launch from its release to its Completion, each launch is held
// against the same path's sequential launches session by session, and a
// failure is counted, never dropped.
import test from 'ava';
import { openLoopTable, peakOverlap, type OpenLoopRow } from '../harness/burst/open-loop.js';
import { checkOpenLoop, burstArms, openArmOf } from '../harness/burst/burst-arms.js';
import type { BurstLaunch } from '../harness/stats/burst-summary.js';

test('peak overlap: intervals that only touch are not in flight together', (t) => {
  t.is(peakOverlap([]), 0);
  t.is(
    peakOverlap([
      [0, 100],
      [100, 200],
    ]),
    1,
  );
  t.is(
    peakOverlap([
      [0, 150],
      [100, 250],
      [200, 300],
    ]),
    2,
  );
  t.is(
    peakOverlap([
      [0, 1000],
      [100, 1000],
      [200, 1000],
    ]),
    3,
  );
});

const row = (path: string, session: number, round: number, k: number, readyMs: number | null, completionMs: number | null): OpenLoopRow => ({
  path,
  phase: 'formal',
  session,
  round,
  ok: readyMs !== null,
  ready_ms: readyMs,
  completion_ms: completionMs,
  spawn_offset_ms: 0.01 * (k + 1),
  release_offset_ms: 100 * k,
});

test('per path and rate: P50 from each launch own release, its ratio to alone per session, in flight and failures (made-up rows)', (t) => {
  const rows: OpenLoopRow[] = [];
  const sequential: BurstLaunch[] = [];
  for (const session of [1, 2, 3]) {
    // alone: 40 ms in session 1, 50 in 2, 60 in 3 (a drift the per-session ratio cancels)
    const alone = 30 + 10 * session;
    sequential.push({ path: 'crun', level: 1, session, burst: 'r1', readyMs: alone, ok: true });
    // at 10/s each launch takes twice its session's time alone, and lasts 150 ms: two in flight at once
    for (let k = 0; k < 3; k++) rows.push(row('crun-r10', session, 1, k, 2 * alone, 150));
    // a warmup row and a closed-loop row are not in the table
    rows.push({ ...row('crun-r10', session, 0, 0, 1, 1), phase: 'warmup' });
    rows.push(row('crun-n4', session, 1, 0, 5, 5));
  }
  rows.push(row('runsc-r10', 1, 1, 0, null, null)); // a failure, no sequential launches of runsc
  const [crun, runsc] = openLoopTable(rows, sequential);
  t.like(crun, { path: 'crun', ratePerS: 10, count: 3, sessions: 3, trains: 3, launches: 9, inFlightMedian: 2, inFlightMax: 2 });
  t.is(crun!.failures.successes, 0);
  t.is(crun!.ratioToSequential!.value.toFixed(6), '2.000000');
  t.is(crun!.ratioToSequential!.low!.toFixed(6), '2.000000', 'every session ×2: no spread');
  // the geometric mean of the session P50s 80, 100, 120
  t.is(crun!.p50Ms!.value.toFixed(6), Math.cbrt(80 * 100 * 120).toFixed(6));
  t.is(crun!.lateMsMax, 0.03);
  t.like(runsc, { path: 'runsc', launches: 1, p50Ms: null, ratioToSequential: null, inFlightMedian: null });
  t.is(runsc!.failures.successes, 1);
});

test('open-loop arms: named <path>-r<rate>, after the closed levels; open_loop is checked with a remedy', (t) => {
  t.deepEqual(burstArms(['crun'], [4, 1], [20, 5]), ['crun-n1', 'crun-n4', 'crun-r5', 'crun-r20']);
  t.deepEqual(openArmOf('crun-twin-r20'), { path: 'crun-twin', ratePerS: 20 });
  t.is(openArmOf('crun-n20'), null);
  const at = { file: 'p.yaml', key: 'stages.sample.with.open_loop' };
  t.is(checkOpenLoop(undefined, 128, at), null);
  t.deepEqual(checkOpenLoop({ count: 16, rates_per_s: [80, 5] }, 128, at), { count: 16, ratesPerS: [5, 80] });
  t.throws(() => checkOpenLoop({ count: 1, rates_per_s: [5] }, 128, at), { message: /open_loop\.count must be a whole number from 2 to 128/ });
  t.throws(() => checkOpenLoop({ count: 4, rates_per_s: [5, 5] }, 128, at), { message: /distinct whole launches per second/ });
});
