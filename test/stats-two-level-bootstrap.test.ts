import test from 'ava';
import { twoLevelDraws } from './helpers/two-level-draws.js';
import { execFileSync } from 'node:child_process';
import { pairedRoundBootstrap, type PairedRound } from '../harness/stats/paired-bootstrap.js';
import { quantileSorted } from '../harness/stats/quantile.js';
import { seededRandom } from '../harness/stats/seeded-random.js';
import { selectQuantile } from '../harness/stats/select-quantile.js';
import { pairSessions, sessionDirectionSentence, twoLevelBootstrap, type PairedSession, type SessionRow } from '../harness/stats/two-level-bootstrap.js';

const oneSession: PairedRound[] = [
  { a: [120], b: [100] },
  { a: [130], b: [90] },
  { a: [110], b: [105] },
  { a: [300], b: [95] },
  { a: [125], b: [101] },
  { a: [118], b: [99, 97] },
  { a: [], b: [98] }, // incomplete: not a resampling unit
];

test('with one session the two-level bootstrap gives exactly the paired-round bootstrap of the same seed', (t) => {
  const options = { resamples: 3000, confidence: 0.95, seed: 'k1' };
  const one = pairedRoundBootstrap(oneSession, options);
  const two = twoLevelBootstrap([{ session: 1, rounds: oneSession }], options);
  t.deepEqual(
    { rounds: two.rounds, observed: two.observed, low: two.low, high: two.high, containsZero: two.containsZero },
    { rounds: one.rounds, observed: one.observed, low: one.low, high: one.high, containsZero: one.containsZero },
  );
});

/** Three sessions of 20 rounds: a is slower than b in sessions 1 and 2, faster in session 3. */
function reversingSessions(): SessionRow[] {
  const random = seededRandom('reversal');
  const rows: SessionRow[] = [];
  const level = { 1: { a: 1000, b: 950 }, 2: { a: 1010, b: 955 }, 3: { a: 900, b: 980 } } as const;
  for (const session of [1, 2, 3] as const) {
    for (let round = 1; round <= 20; round++) {
      rows.push({ session, round, path: 'a', value: level[session].a + 10 * random() });
      rows.push({ session, round, path: 'b', value: level[session].b + 10 * random() });
      rows.push({ session, round, path: 'other', value: 1 });
    }
  }
  return rows;
}

test('when one of three sessions reverses a difference the two-level interval crosses 0 while the pooled one-level interval does not', (t) => {
  const sessions = pairSessions(reversingSessions(), 'a', 'b');
  const options = { resamples: 4000, confidence: 0.95, seed: 'rev' };
  const twoLevel = twoLevelBootstrap(sessions, options);
  const pooled = pairedRoundBootstrap(
    sessions.flatMap((s) => s.rounds),
    options,
  );
  t.true(twoLevel.low! < 0 && twoLevel.high! > 0, `two-level [${twoLevel.low}, ${twoLevel.high}]`);
  t.true(twoLevel.containsZero);
  t.false(pooled.containsZero, `pooled [${pooled.low}, ${pooled.high}]`);
});

test('per-session directions say the difference held in 2 of 3 sessions when one session reverses it', (t) => {
  const r = twoLevelBootstrap(pairSessions(reversingSessions(), 'a', 'b'), { resamples: 10, confidence: 0.95, seed: 's' });
  t.is(r.sessions, 3);
  t.is(r.sameDirection, 2);
  t.deepEqual(
    r.perSession.map((s) => s.direction),
    [1, 1, -1],
  );
  t.is(sessionDirectionSentence(r), 'same direction in 2 of 3 sessions');
});

test('with fewer than three sessions the between-session uncertainty is marked as not estimated', (t) => {
  const rows = reversingSessions().filter((r) => r.session !== 3);
  const r = twoLevelBootstrap(pairSessions(rows, 'a', 'b'), { resamples: 10, confidence: 0.95, seed: 's' });
  t.is(r.sessions, 2);
  t.false(r.betweenSessionEstimated);
  t.is(sessionDirectionSentence(r), 'same direction in 2 of 2 sessions; between-session uncertainty not estimated (fewer than 3 sessions)');
});

test('pairSessions groups the two paths by session and round in ascending order and ignores other paths', (t) => {
  const rows: SessionRow[] = [
    { session: 2, round: 5, path: 'b', value: 4 },
    { session: 2, round: 5, path: 'a', value: 3 },
    { session: 1, round: 9, path: 'a', value: 2 },
    { session: 1, round: 2, path: 'a', value: 1 },
    { session: 1, round: 2, path: 'c', value: 9 },
  ];
  t.deepEqual(pairSessions(rows, 'a', 'b'), [
    {
      session: 1,
      rounds: [
        { a: [1], b: [] },
        { a: [2], b: [] },
      ],
    },
    { session: 2, rounds: [{ a: [3], b: [4] }] },
  ]);
});

test('type-7 quantiles by selection equal those of the sorted values, ties included', (t) => {
  const random = seededRandom('select');
  for (const n of [1, 2, 3, 10, 999, 5000]) {
    const xs = Float64Array.from({ length: n }, () => Math.floor(random() * 50));
    const sorted = Array.from(Float64Array.from(xs).sort());
    for (const p of [0, 0.025, 0.5, 0.975, 1]) {
      t.is(selectQuantile(Float64Array.from(xs), p), quantileSorted(sorted, p), `n=${n} p=${p}`);
    }
  }
});

// Debian's python3 with python3-numpy (installed by setup.sh) is the independent reference.
const PYTHON = '/usr/bin/python3';

function hasNumpy(): boolean {
  try {
    execFileSync(PYTHON, ['-c', 'import numpy'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test('two-level resampled medians and the percentile interval agree with NumPy given the same draws', (t) => {
  t.true(hasNumpy(), `${PYTHON} cannot import numpy: install Debian python3-numpy (./setup.sh does)`);
  const sessions: PairedSession[] = pairSessions(reversingSessions(), 'a', 'b');
  sessions[1]!.rounds.push({ a: [1005, 1007], b: [951] }); // unequal rounds per session and values per round
  const resamples = 400;
  // The documented draw order: K session draws, then for each drawn session in order its own round draws.
  const draws = twoLevelDraws(sessions, resamples, 'numpy-two-level');
  const script = `
import json, sys, numpy as np
d = json.load(sys.stdin)
S, draws = d['sessions'], d['draws']
def diff(picked):
    a = np.concatenate([S[s]['rounds'][r]['a'] for s, r in picked])
    b = np.concatenate([S[s]['rounds'][r]['b'] for s, r in picked])
    return np.median(a) - np.median(b)
diffs = [diff(p) for p in draws]
allr = [(s, r) for s in range(len(S)) for r in range(len(S[s]['rounds']))]
print(json.dumps([float(diff(allr)), float(np.percentile(diffs, 2.5)), float(np.percentile(diffs, 97.5))]))
`;
  const out = execFileSync(PYTHON, ['-c', script], { input: JSON.stringify({ sessions, draws }) }).toString();
  const [observed, low, high] = JSON.parse(out) as [number, number, number];
  const fast = twoLevelBootstrap(sessions, { resamples, confidence: 0.95, seed: 'numpy-two-level' });
  t.true(Math.abs(fast.observed! - observed) < 1e-9, `${fast.observed} vs ${observed}`);
  t.true(Math.abs(fast.low! - low) < 1e-9, `${fast.low} vs ${low}`);
  t.true(Math.abs(fast.high! - high) < 1e-9, `${fast.high} vs ${high}`);
});
