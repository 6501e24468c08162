import test from 'ava';
import { sessionNoise, steadyBackground, MIN_SLOWDOWN } from '../harness/analysis/session-noise.js';
import type { CanaryResult } from '../harness/analysis/canary-statistics.js';
import type { SessionRecord } from '../harness/contract/exchange-files.js';
import { noiseCauseSentence, noiseCell, noiseRuleSentence, steadyBackgroundSentence } from '../harness/publish/host-wording.js';
import { calibratedNoise, canaryRowsOf } from '../harness/analysis/calibrated-noise.js';
import { hostNoiseBlocks } from '../harness/publish/session-sections.js';
import type { SampleRow } from '../harness/db/sample-row.js';
import { madeUpRow } from './helpers/made-up-row.js';

// Made-up session records: 10 minutes on 2 CPUs (1,200 s of capacity), the host's agent
// (pid 1, "agent") at about 12% of it in every session, as on the published host kind.
function record(session: number, agentShare: number, extra: { name: string; share: number }[] = [], steal = 0.001): SessionRecord {
  const capacity = 600_000 * 2;
  const top = [{ name: 'agent', cpuMs: agentShare * capacity, processes: 1 }, ...extra.map((e) => ({ name: e.name, cpuMs: e.share * capacity, processes: 1 }))];
  const foreign = top.reduce((s, f) => s + f.cpuMs, 0);
  const noise = {
    wallMs: 600_000,
    cpuModel: 'made-up',
    cpuCount: 2,
    loadAverageStart: [0.5, 0.5, 0.5] as [number, number, number],
    loadAverageEnd: [1, 1, 1] as [number, number, number],
    memAvailableStartBytes: 3e9,
    memAvailableEndBytes: 3e9,
    memTotalBytes: 4e9,
    stealShare: steal,
    iowaitShare: 0.02,
    idleShare: 0.5,
    foreignCpuMs: foreign,
    topForeign: top.sort((a, b) => b.cpuMs - a.cpuMs),
  };
  // the fixed-threshold flag of process/host-noise.ts: the agent alone crosses 10%
  return {
    session,
    attempt: 1,
    host: 'h',
    startedAt: '2026-12-03T10:00:00Z',
    endedAt: '2026-12-03T10:10:00Z',
    noise: { ...noise, noisy: true, reasons: ['other processes used 12.0% of CPU capacity'] },
  };
}

/** A made-up canary result: per session the median of each piece with a ±1% interval. */
function canary(medians: Record<number, Record<string, number>>): CanaryResult {
  const sessions = Object.keys(medians)
    .map(Number)
    .map((session) => ({
      session,
      pieces: Object.entries(medians[session]!).map(([piece, m]) => ({ piece, n: 5, failures: 0, medianMs: m, lowMs: m * 0.99, highMs: m * 1.01 })),
    }));
  const pieces = Object.keys(medians[sessions[0]!.session]!);
  return {
    metric: 'completion',
    pieces,
    sessions,
    run: pieces.map((piece) => ({ piece, n: 15, sessions: sessions.length, failures: 0, medianMs: 100, lowMs: 99, highMs: 101 })),
    confidence: 0.95,
    resamples: 1000,
  };
}

test('a steady agent at about 12% in every session is the background, named once, and flags no session (made-up records)', (t) => {
  const records = [record(1, 0.12), record(2, 0.118), record(3, 0.125)];
  const r = sessionNoise(records, canary({ 1: { cpu: 100, wake: 50 }, 2: { cpu: 100.5, wake: 50.2 }, 3: { cpu: 99.8, wake: 49.9 } }))!;
  t.deepEqual(
    r.steady.map((s) => s.name),
    ['agent'],
  );
  t.deepEqual(
    r.sessions.map((s) => s.verdict),
    ['quiet', 'quiet', 'quiet'],
  );
  t.true(r.sessions.every((s) => s.account.length === 0 && s.otherShare < 0.01));
  t.deepEqual(
    records.map((x) => noiseCell({ noise: r }, x)),
    ['no', 'no', 'no'],
  );
  t.regex(
    steadyBackgroundSentence({ noise: r })!,
    /^\*\*Background:\*\* agent 11\.8%–12\.5% of the CPU capacity in every session, with the children each reaped .*not counted as noise\.$/,
  );
});

test('a session whose canary is slower beyond its interval is flagged, and its CPU account names the extra load (made-up records)', (t) => {
  const records = [record(1, 0.12), record(2, 0.12, [{ name: 'cc1plus', share: 0.15 }]), record(3, 0.12)];
  const r = sessionNoise(records, canary({ 1: { cpu: 100, wake: 50 }, 2: { cpu: 118, wake: 50.1 }, 3: { cpu: 101, wake: 50 } }))!;
  const s2 = r.sessions.find((s) => s.session === 2)!;
  t.is(s2.verdict, 'noisy');
  t.deepEqual(
    s2.slower.map((p) => p.piece),
    ['cpu'],
  );
  t.true(s2.slower[0]!.ratio >= MIN_SLOWDOWN);
  t.regex(s2.account.join(' '), /other processes used 15\.0% .*cc1plus/);
  t.notRegex(s2.account.join(' '), /agent/);
  t.regex(noiseCell({ noise: r }, records[1]!), /^yes: canary cpu ×1\.17 the other sessions; other processes used 15\.0%/);
  t.deepEqual(
    r.sessions.filter((s) => s.verdict === 'noisy').map((s) => s.session),
    [2],
  );
});

test('a slower canary with nothing in the CPU account is flagged, and that no cause is known is said once for the run, not in each session (made-up records)', (t) => {
  const records = [record(1, 0.12), record(2, 0.12), record(3, 0.12)];
  const r = sessionNoise(records, canary({ 1: { cpu: 100 }, 2: { cpu: 100 }, 3: { cpu: 112 } }))!;
  t.is(noiseCell({ noise: r }, records[2]!), 'yes: canary cpu ×1.12 the other sessions');
  t.is(
    noiseCauseSentence({ noise: r }),
    'For the noisy session (session 3), the CPU account names no cause: the canary moved, and neither steal, other processes, iowait nor memory crossed its threshold; the cause is not known.',
  );
  t.is(noiseCauseSentence({ noise: sessionNoise(records, canary({ 1: { cpu: 100 }, 2: { cpu: 100 }, 3: { cpu: 100 } }))! }), null);
});

test('a session slower by less than the floor, or within its interval, is quiet (made-up records)', (t) => {
  const records = [record(1, 0.12), record(2, 0.12)];
  const r = sessionNoise(records, canary({ 1: { cpu: 100 }, 2: { cpu: 103 } }))!;
  t.deepEqual(
    r.sessions.map((s) => s.verdict),
    ['quiet', 'quiet'],
  );
});

test('one session, or no canary, is not judged; a background that is not in every session is not steady (made-up records)', (t) => {
  const one = sessionNoise([record(1, 0.12)], canary({ 1: { cpu: 100 } }))!;
  t.is(one.sessions[0]!.verdict, 'not judged');
  t.deepEqual(one.steady, []);
  t.regex(noiseCell({ noise: one }, record(1, 0.12)), /^not judged \(one session\); other processes used 12\.0%/);
  const none = sessionNoise([record(1, 0.12), record(2, 0.12)], null)!;
  t.deepEqual(
    none.sessions.map((s) => s.verdict),
    ['not judged', 'not judged'],
  );
  t.deepEqual(
    steadyBackground([record(1, 0.12, [{ name: 'cron', share: 0.05 }]), record(2, 0.12)]).map((s) => s.name),
    ['agent'],
  );
  // a share that doubles is not steady
  t.deepEqual(steadyBackground([record(1, 0.05), record(2, 0.12)]), []);
});

test('without the calibrated finding the table keeps the record’s own flag and the fixed rule (an analysis written before it)', (t) => {
  t.regex(noiseCell({}, record(1, 0.12)), /^yes: other processes/);
  t.regex(noiseRuleSentence({}), /^A session is flagged noisy when steal reaches 2%/);
  t.regex(noiseRuleSentence({ noise: sessionNoise([record(1, 0.12)], null)! }), /its host canary is slower than the run's other sessions beyond its interval/);
  t.is(steadyBackgroundSentence({}), null);
});

test('an experiment without its own canary analysis gets the calibrated flag from its sample rows, and its host section names the background (made-up rows)', (t) => {
  const records = [record(1, 0.12), record(2, 0.12), record(3, 0.12)];
  // five canary repeats of two pieces per session; session 2's cpu piece about 30% slower; formal rows are not the canary's
  const rows: SampleRow[] = [];
  for (const session of [1, 2, 3])
    for (const [piece, ms] of [
      ['cpu', session === 2 ? 130 : 100],
      ['wake', 50],
    ] as const)
      for (let repeat = 1; repeat <= 5; repeat++)
        rows.push(madeUpRow({ phase: 'canary', session, path: piece, round: repeat, ok: true, completion_ms: ms + repeat * 0.1 }));
  rows.push(madeUpRow({ phase: 'formal', session: 2, path: 'cpu', round: 1, ok: true, completion_ms: 1 }));
  t.is(canaryRowsOf(rows).length, 30);
  const { noise } = calibratedNoise(rows, records, { resamples: 200, confidence: 0.95, seed: 'made-up' });
  t.deepEqual(
    noise!.sessions.map((s) => s.verdict),
    ['quiet', 'noisy', 'quiet'],
  );
  t.deepEqual(calibratedNoise(rows, null, { resamples: 200, confidence: 0.95, seed: 'made-up' }), {});
  const text = JSON.stringify(hostNoiseBlocks(records, { noise }, 'here'));
  t.is(text.split('**Background:** agent').length - 1, 1);
  t.regex(text, /named once at the end of this paragraph/);
  t.notRegex(JSON.stringify(hostNoiseBlocks(records, { noise })), /Background:/);
});
