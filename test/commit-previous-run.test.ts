// A verdict that did not hold since the archived previous run says so, naming
// the run (issue 33). Made-up runs: a made-up archived differences.csv against
// made-up analyses, a test of our own reading and wording.
import { judge } from '../harness/comparison/judge.js';
import { defaultPracticalMargin } from '../harness/config/practical-margin.js';
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CellRatio } from '../harness/commit/commit-analysis.js';
import { verdictChangeSentence } from '../harness/commit/commit-phrases.js';
import { readPreviousRun, verdictChanges } from '../harness/commit/previous-run.js';
import { comparisonDifferencesCsv } from '../harness/publish/comparison-csv.js';
import type { ComparisonResult } from '../harness/stats/paired-comparison.js';

const dims = (files: number) => ({ change_bytes: 1024, file_count: files, total_mb: 100 });
const cellOf = (files: number) => `change_bytes=1024,file_count=${files},total_mb=100`;

function comparison(observed: number, low: number, high: number, detected: boolean): ComparisonResult {
  return {
    kind: 'ratio',
    observed,
    low,
    high,
    confidence: 0.95,
    resamples: 1000,
    rounds: 6,
    sessions: 3,
    sameDirection: 3,
    sessionLow: low,
    sessionHigh: high,
    betweenSessionEstimated: true,
    perSession: [],
    findings: { detected, sessionsDisagreeInSize: false, direction: detected ? (observed > 1 ? 'higher' : 'lower') : null, sizeUncertain: false },
  } as unknown as ComparisonResult;
}
const ratio = (files: number, state: string, c: ComparisonResult): CellRatio =>
  ({ cell: cellOf(files), dims: dims(files), state, comparison: c }) as unknown as CellRatio;

/** A made-up archived run folder, its differences.csv written by the one writer the report stage uses. */
function madeUpArchivedRun(lines: CellRatio[]): string {
  const root = mkdtempSync(join(tmpdir(), 'bg-made-up-runs-'));
  const dir = join(root, 'runs', '2026-11-30-made-up0000001');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'differences.csv'),
    comparisonDifferencesCsv(
      lines.map((r) => ({
        cohort: r.cell,
        state: r.state,
        metric: 'completion',
        a: 'naive',
        b: 'native',
        unit: 'ms',
        comparison: r.comparison,
        verdict: judge(r.comparison, [], null, defaultPracticalMargin, null).verdict,
      })),
    ),
  );
  return dir;
}

test('made-up runs: a many-file initial verdict that flipped, one lost and one gained each get a sentence naming the run; held ones none', (t) => {
  const dir = madeUpArchivedRun([
    ratio(10000, 'initial', comparison(0.43, 0.3, 0.6, true)),
    ratio(100000, 'initial', comparison(0.74, 0.6, 0.9, true)),
    ratio(100, 'incremental', comparison(1.2, 0.9, 1.5, false)),
    ratio(1000, 'incremental', comparison(8, 7, 9, true)),
  ]);
  try {
    const previous = readPreviousRun(dir)!;
    t.is(previous.name, '2026-11-30-made-up0000001');
    const now = [
      ratio(10000, 'initial', comparison(1.37, 1.1, 1.7, true)),
      ratio(100000, 'initial', comparison(1.34, 0.9, 1.8, false)),
      ratio(100, 'incremental', comparison(7, 6, 8, true)),
      ratio(1000, 'incremental', comparison(8.5, 7, 10, true)),
      ratio(50000, 'initial', comparison(1.3, 1.1, 1.5, true)), // not in the previous run
    ];
    const changes = verdictChanges(now, previous);
    t.deepEqual(
      changes.map((c) => [c.dims.file_count, c.state, c.status]),
      [
        [10000, 'initial', 'changed'],
        [100000, 'initial', 'lost'],
        [100, 'incremental', 'gained'],
      ],
    );
    const [flipped, lost, gained] = changes.map((c) => verdictChangeSentence(c, previous.name));
    t.is(
      flipped,
      'Initial, 100 MB in 10000 files, 1 KB change: flipped since run 2026-11-30-made-up0000001, naive/native ×0.43 [0.30, 0.60], native slower there, ×1.37 [1.10, 1.70], naive slower here.',
    );
    t.regex(
      lost!,
      /lost its verdict since run 2026-11-30-made-up0000001, naive\/native ×0\.74 \[0\.60, 0\.90\], native slower there, ×1\.34 \[0\.90, 1\.80\], not detected here/,
    );
    t.regex(gained!, /gained a verdict since run 2026-11-30-made-up0000001/);
  } finally {
    rmSync(join(dir, '..', '..'), { recursive: true, force: true });
  }
});

test('made-up runs: a folder without differences.csv is no previous run', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bg-made-up-runs-'));
  try {
    t.is(readPreviousRun(dir), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
