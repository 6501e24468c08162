// Intervals resting on few values per arm are printed to the decimals the
// bootstrap seeds agree on (issue 33): our own rule, on made-up commits.
import test from 'ava';
import { analyzeCommits } from '../harness/commit/commit-analysis.js';
import { intervalDigits } from '../harness/stats/seed-spread.js';
import { ratioCell, seedDigitsSentence } from '../harness/commit/commit-phrases.js';
import { cellId, commitRow } from './helpers/commit-rows.js';

test('the digits are the most whose half-unit covers the seed spread', (t) => {
  t.is(intervalDigits(0), 2);
  t.is(intervalDigits(0.005), 2);
  t.is(intervalDigits(0.006), 1);
  t.is(intervalDigits(0.05), 1);
  t.is(intervalDigits(0.3), 1, 'never below one decimal: 1.10 must not print as 1');
  t.is(intervalDigits(null), 2);
});

const d = { total_mb: 100, file_count: 100000, change_bytes: 1024 };

test('made-up commits with identical ratios in every round: the endpoints do not move, two decimals', (t) => {
  const rows = [1, 2, 3].flatMap((s) =>
    [1, 2].flatMap((r) => [commitRow(d, 'naive', 'initial', r, 20, 'formal', s), commitRow(d, 'native', 'initial', r, 10, 'formal', s)]),
  );
  const r = analyzeCommits(rows, [], { resamples: 300, confidence: 0.95, seed: 's' }).ratios[0]!;
  t.is(r.seedSpread, 0);
  t.is(r.intervalDigits, 2);
  t.is(ratioCell(r.comparison, r.intervalDigits), '2.00× [2.00, 2.00]');
});

test('made-up commits, 2 per arm and session with wide scatter: the endpoints move with the seed, fewer decimals and a sentence that says so', (t) => {
  const naive = [7000, 14000, 9000, 21000, 6000, 12000];
  const native = [9000, 8000, 15000, 7000, 10000, 16000];
  const rows = [1, 2, 3].flatMap((s) =>
    [1, 2].flatMap((r) => {
      const i = (s - 1) * 2 + (r - 1);
      return [commitRow(d, 'naive', 'initial', r, naive[i]!, 'formal', s), commitRow(d, 'native', 'initial', r, native[i]!, 'formal', s)];
    }),
  );
  const a = analyzeCommits(rows, [], { resamples: 300, confidence: 0.95, seed: 's' });
  const r = a.ratios[0]!;
  t.true(r.seedSpread! > 0.005, `spread ${r.seedSpread}`);
  t.true(r.intervalDigits < 2);
  t.regex(ratioCell(r.comparison, r.intervalDigits, r.seedSpread), r.seedSpread! > 0.05 ? /\[\d+\.\d, \d+\.\d; seed ±\d+\.\d\]$/ : /\[\d+\.\d, \d+\.\d\]$/);
  t.regex(
    seedDigitsSentence(a)!,
    /^1 of 1 wall-time intervals rest on few commits per engine, and their endpoints move by up to \d+\.\d\d with the bootstrap seed/,
  );
  t.is(cellId(d), r.cell);
});
