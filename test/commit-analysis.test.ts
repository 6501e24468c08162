// Our own analysis logic on rows made up in the test (no engine involved).
import test from 'ava';
import { analyzeCommits, sweeps } from '../harness/commit/commit-analysis.js';
import { cellId, commitRow } from './helpers/commit-rows.js';

const dims = (total_mb: number, file_count: number, change_bytes: number) => ({ total_mb, file_count, change_bytes });
const id = cellId;
const row = commitRow;

test('made-up cells: a sweep is each group of cells that differ in one dimension only', (t) => {
  const cells = [dims(100, 100, 1024), dims(2000, 100, 1024), dims(100, 1000, 1024), dims(100, 100, 1048576)].map((d) => ({ cell: id(d), dims: d }));
  const found = sweeps(cells).map((s) => `${s.dimension}:${s.cells.length}`);
  t.deepEqual(found, ['total_mb:2', 'file_count:2', 'change_bytes:2']);
});

test('made-up rows: the naive/native ratio pairs rounds and ignores warmup rows', (t) => {
  const d = dims(100, 100, 1024);
  const rows = [1, 2, 3].flatMap((r) => [row(d, 'naive', 'incremental', r, 10 * r), row(d, 'native', 'incremental', r, r)]);
  rows.push(row(d, 'naive', 'incremental', 1, 1e9, 'warmup'));
  const a = analyzeCommits(rows, [], { resamples: 200, confidence: 0.95, seed: 's' });
  const r = a.ratios.find((x) => x.state === 'incremental')!;
  t.is(r.comparison.rounds, 3);
  t.is(r.comparison.observed, 10);
  t.is(r.naiveSlowerRounds, 3);
  t.is(r.comparison.low, 10, 'every resample of rounds with ratio 10 has ratio 10');
});
