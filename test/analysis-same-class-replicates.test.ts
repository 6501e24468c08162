// The replicates a rerun interval pools are the same-key runs on this run's
// host class (harness/analysis/same-class-replicates.ts): on the published
// run's own canary (run.json), a run whose canary is that one scaled as the
// shared replicate's was (PTI on: cpu ×1.27, mem ×5.49, fs ×2.19, wake ×0.75,
// exec ×5.26; made-up run from those measured ratios) is left out, one a few
// percent off is kept, and a run without a canary is kept and said to be
// unplaced. The rerun sentence names what it left out.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canaryPieceMedians, sameClassReplicates } from '../harness/analysis/same-class-replicates.js';
import { readArchive } from '../harness/analysis/read-replicates.js';
import type { ReplicateRun } from '../harness/analysis/replicate-runs.js';
import { rerunScopeSentence } from '../harness/report/rerun-wording.js';
import type { AnalysisResult } from '../harness/analysis/analysis-result.js';

const published = (
  JSON.parse(readFileSync(join('reports', 'lazy-startup', 'runs', '2026-12-05-f6b8e493f9fe', 'run.json'), 'utf8')) as {
    canary: { pieces: { piece: string; medianMs: number }[] };
  }
).canary.pieces;
const own = Object.fromEntries(published.map((p) => [p.piece, p.medianMs]));
const scaled = (by: Record<string, number>): Record<string, number> => Object.fromEntries(published.map((p) => [p.piece, p.medianMs * (by[p.piece] ?? 1)]));
const run = (id: string, canary: Record<string, number> | null): ReplicateRun => ({ id, host: 'h', rows: [], canary });

test('a same-key run on another host class by the canary is left out of the rerun interval; one on this class is kept; one without a canary is kept, unplaced', (t) => {
  // the spread of each piece from the published archive's canaries, as the analysis takes it
  const archive = readArchive(join('reports', 'lazy-startup', 'runs'), { key: 'none', outputDigest: 'none' }).canaries;
  t.true(archive.length >= 3, `${archive.length} archived canaries`);
  const r = sameClassReplicates(
    own,
    [
      run('pti-on', scaled({ cpu: 1.27, mem: 5.49, fs: 2.19, wake: 0.75, exec: 5.26 })),
      run('same-class', scaled({ cpu: 1.02, mem: 0.98, fs: 1.05, wake: 1.03, exec: 1.01 })),
      run('no-canary', null),
    ],
    archive,
  );
  t.deepEqual(
    r.kept.map((x) => x.id),
    ['same-class', 'no-canary'],
  );
  t.deepEqual(r.otherClass, ['pti-on']);
  t.deepEqual(r.unplaced, ['no-canary']);
});

test('without its own canary a run cannot place its replicates: every one is kept, and unplaced', (t) => {
  const r = sameClassReplicates(null, [run('a', own)]);
  t.deepEqual(
    r.kept.map((x) => x.id),
    ['a'],
  );
  t.deepEqual(r.unplaced, ['a']);
});

test('the canary medians are per piece over the ok launches', (t) => {
  const rows = [
    { session: 1, piece: 'cpu', repeat: 1, ok: true, completionMs: 10 },
    { session: 1, piece: 'cpu', repeat: 2, ok: true, completionMs: 30 },
    { session: 2, piece: 'cpu', repeat: 1, ok: true, completionMs: 20 },
    { session: 1, piece: 'mem', repeat: 1, ok: false, completionMs: 99 },
    { session: 1, piece: 'mem', repeat: 2, ok: true, completionMs: 5 },
  ];
  t.deepEqual(canaryPieceMedians(rows), { cpu: 20, mem: 5 });
  t.is(canaryPieceMedians([]), null);
});

test('the rerun sentence names the runs of another class it left out', (t) => {
  const a = {
    differences: [{ confidence: 0.95 }],
    rerun: {
      source: 'host kind',
      runLogVariance: 0.004,
      ratioRunLogVariance: 0.0007,
      figureSource: 'the host kind',
      otherClassRuns: ['2026-12-06-1b539537c7f0'],
    },
  } as unknown as AnalysisResult;
  t.regex(
    rerunScopeSentence(a)!,
    /With one run of this class, .* Left out of it: 1 same-key run of another host class by the canary \(2026-12-06-1b539537c7f0\)/,
  );
});
