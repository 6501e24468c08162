// The host canary's statistics (analysis/canary-statistics.ts) on made-up
// canary launches: medians agree with NumPy's, failures are counted and left
// out, intervals hold their median.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { canaryStatistics, type CanaryLaunchRow } from '../harness/analysis/canary-statistics.js';
import { seededRandom } from '../harness/stats/seeded-random.js';

const bootstrap = { resamples: 400, confidence: 0.95, seed: 'canary-test' };

function madeUpRows(): CanaryLaunchRow[] {
  const rnd = seededRandom('canary-rows');
  const rows: CanaryLaunchRow[] = [];
  for (let session = 1; session <= 3; session++)
    for (let repeat = 1; repeat <= 5; repeat++)
      for (const [piece, base] of [
        ['cpu', 30],
        ['fs', 60],
      ] as const)
        rows.push({ session, piece, repeat, ok: true, completionMs: base * session * (0.9 + 0.2 * rnd()) });
  rows.push({ session: 2, piece: 'fs', repeat: 6, ok: false, completionMs: null });
  return rows;
}

test("per-session and per-run canary medians equal NumPy's medians of the ok launches (made-up data)", (t) => {
  const rows = madeUpRows();
  const c = canaryStatistics(rows, bootstrap)!;
  const groups: Record<string, number[]> = {};
  for (const r of rows.filter((x) => x.ok)) {
    (groups[`${r.piece} ${r.session}`] ??= []).push(r.completionMs!);
    (groups[`${r.piece} run`] ??= []).push(r.completionMs!);
  }
  const numpy = JSON.parse(
    execFileSync('python3', ['-c', 'import json,sys,numpy; g=json.load(sys.stdin); print(json.dumps({k: float(numpy.median(v)) for k, v in g.items()}))'], {
      input: JSON.stringify(groups),
    }).toString(),
  ) as Record<string, number>;
  for (const s of c.sessions)
    for (const m of s.pieces) t.true(Math.abs(m.medianMs! - numpy[`${m.piece} ${s.session}`]!) < 1e-9, `${m.piece} session ${s.session}`);
  for (const m of c.run) t.true(Math.abs(m.medianMs! - numpy[`${m.piece} run`]!) < 1e-9, `${m.piece} run`);
});

test('a failed canary launch is counted, not used, and every interval holds its median (made-up data)', (t) => {
  const c = canaryStatistics(madeUpRows(), bootstrap)!;
  const fs2 = c.sessions.find((s) => s.session === 2)!.pieces.find((p) => p.piece === 'fs')!;
  t.is(fs2.failures, 1);
  t.is(fs2.n, 5);
  t.deepEqual(
    c.run.map((m) => [m.piece, m.n, m.sessions]),
    [
      ['cpu', 15, 3],
      ['fs', 15, 3],
    ],
  );
  for (const m of [...c.run, ...c.sessions.flatMap((s) => s.pieces)]) t.true(m.lowMs! <= m.medianMs! && m.medianMs! <= m.highMs!, m.piece);
});

test('samples without canary launches give no canary section', (t) => {
  t.is(canaryStatistics([], bootstrap), null);
});
