// Our own rendering logic on made-up rows (no engine involved): cells in
// numeric order, the source's expectation said against the measured
// exponent, and report.notes carried into the report.
import test from 'ava';
import { analyzeCommits } from '../harness/commit/commit-analysis.js';
import { cellId, commitRow } from './helpers/commit-rows.js';
import { renderCommitReportMd, type CommitReportInputs } from '../harness/commit/render-commit-report.js';

const dims = (total_mb: number, file_count: number) => ({ total_mb, file_count, change_bytes: 1024 });
const id = cellId;
const row = commitRow;

/** naive incremental flat in the base size and growing with the file count; native flat in both. */
function madeUpReport(): string {
  const cells = [dims(100, 100), dims(450, 100), dims(2000, 100), dims(100, 1000), dims(100, 100000)];
  const rows = cells.flatMap((d) =>
    [1, 2, 3, 4, 5].flatMap((r) => [
      row(d, 'naive', 'incremental', r, 300 * Math.sqrt(d['file_count']! / 100) + r),
      row(d, 'native', 'incremental', r, 55 + r / 10),
      row(d, 'naive', 'initial', r, 4 * d['total_mb']! + r),
      row(d, 'native', 'initial', r, 4 * d['total_mb']! + 2 * r),
    ]),
  );
  const analysis = analyzeCommits(rows, [], { resamples: 300, confidence: 0.95, seed: 'render' });
  const inp: CommitReportInputs = {
    experiment: { name: 'made-up' },
    pipelineFileName: 'made-up.yaml',
    analysis,
    checks: cells.map((d) => ({ cell: id(d), state: 'incremental', entries: 2, equal: true, differences: [] })),
    session: { rounds: 5, warmupRounds: 1, cpus: 2 },
    pins: null,
    stages: [],
    samplesSha256: null,
    notes: ['Measured on a quiet machine (made up).'],
  };
  return renderCommitReportMd(inp, []);
}

test('made-up rows: table rows and checks come in numeric order of the cell, 100 before 1000 before 100000', (t) => {
  const md = madeUpReport();
  const table = md.split('\n').filter((l) => l.startsWith('| total_mb=') && l.includes('| incremental |') && !l.includes('naive |') && !l.includes('native |'));
  t.deepEqual(
    table.map((l) => l.split(' | ')[0]),
    [
      '| total_mb=100, file_count=100, change_bytes=1024',
      '| total_mb=100, file_count=1000, change_bytes=1024',
      '| total_mb=100, file_count=100000, change_bytes=1024',
      '| total_mb=450, file_count=100, change_bytes=1024',
      '| total_mb=2000, file_count=100, change_bytes=1024',
    ],
  );
  const checks = md.split('\n').filter((l) => /^- total_mb=\d+, file_count=\d+, change_bytes=1024 incremental: equal/.test(l));
  t.is(checks.length, 5);
  t.true(checks[1]!.startsWith('- total_mb=100, file_count=1000,'), checks[1]);
});

test("made-up rows: the source's expectation is held against each measured exponent, and report notes are carried", (t) => {
  const md = madeUpReport();
  t.regex(md, /- naive, incremental commit, against the base size: expected b ≈ 1, measured b = -?0\.\d\d \[[^\]]+\]; the interval excludes 1\./);
  t.regex(
    md,
    /- naive, incremental commit, against the file count at a fixed total: expected b ≈ 1, measured b = 0\.5\d \[[^\]]+\]; the interval excludes 1\./,
  );
  t.regex(md, /- native, incremental commit, against the base size: expected b ≈ 0, measured b = -?0\.0\d \[[^\]]+\]; the interval holds 0\./);
  t.regex(md, /The largest incremental naive\/native ratio of medians is [\d.]+× .* at total_mb=100, file_count=100000/);
  t.regex(md, /\n\nMeasured on a quiet machine \(made up\)\.\n/);
  t.regex(md, /1 warmup round of the smallest cell/);
  t.regex(md, /Here the naive incremental commit grew with the number of files, not with the bytes of the base/);
});
