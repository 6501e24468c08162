// The position effect of commit-diff rounds (issue 44, harness/commit/commit-position.ts).
// Made-up commits: a test of our own grouping; the interval is stats/ratio-of-medians.ts's.
import test from 'ava';
import type { CommitRowData } from '../harness/commit/commit-analysis.js';
import { commitPositions } from '../harness/commit/commit-position.js';

const dims = { total_mb: 100, file_count: 10000, change_bytes: 1024 };
/** 12 rounds over 2 sessions; naive first in even rounds; a commit made second takes `slowdown` times as long. */
function rows(slowdown: number): { rows: CommitRowData[]; order: Map<string, number> } {
  const out: CommitRowData[] = [];
  const order = new Map<string, number>();
  for (const session of [1, 2])
    for (let round = 1; round <= 6; round++)
      for (const [i, method] of (round % 2 ? ['native', 'naive'] : ['naive', 'native']).entries()) {
        order.set(`${session}|${round}|c|${method}`, i);
        const base = method === 'naive' ? 1600 : 400;
        out.push({
          cell: 'c',
          dims,
          method,
          state: 'initial',
          phase: 'formal',
          session,
          round,
          ok: true,
          failureReason: null,
          // the same spread of round factors whichever method goes first, so no effect shows where none is made
          wallMs: base * (i === 1 ? slowdown : 1) * [1, 1.02, 1.04, 1.04, 1.02, 1][round - 1]!,
          engineCpuMs: null,
          diskReadBytes: null,
          readCharsBytes: null,
          layerBytes: null,
        });
      }
  return { rows: out, order };
}

const run = (slowdown: number) => {
  const { rows: rs, order } = rows(slowdown);
  return commitPositions(rs, (r) => order.get(`${r.session}|${r.round}|${r.cell}|${r.method}`) ?? null, {
    resamples: 2000,
    confidence: 0.95,
    seed: 'position',
  });
};

test('made-up commits: a second commit ×3 slower is an order effect for both methods; none, none', (t) => {
  const slow = run(3);
  t.is(slow.length, 2);
  for (const p of slow) {
    t.deepEqual([p.nFirst, p.nSecond], [6, 6]);
    t.true(p.low > 1 && Math.abs(p.ratio - 3) < 0.2, `${p.method} ×${p.ratio} [${p.low}, ${p.high}]`);
  }
  for (const p of run(1)) t.true(p.low <= 1 && p.high >= 1, `${p.method} ×${p.ratio} [${p.low}, ${p.high}]`);
});

test('made-up commits: a visit without its place in the round is left out, not guessed', (t) => {
  const { rows: rs } = rows(3);
  t.deepEqual(
    commitPositions(rs, () => null, { resamples: 200, confidence: 0.95, seed: 'x' }),
    [],
  );
});
