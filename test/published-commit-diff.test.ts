// The committed commit-diff report (reports/commit-diff) read as a reader
// does: the summary is its first table, the headline incremental ratio with
// its interval is in the first 200 words, the main text is within 1,500
// words, no long sentence is said twice, every number of the summary is a
// row of the published ratios.csv, and commits.csv holds every formal commit.
// It holds for a report rendered by harness/commit/commit-report-document.ts
// (the lead re-renders reports/commit-diff from the frozen samples).
import test from 'ava';
import { firstTable, mainMarkdown, markdownWords, publishedCsv, publishedFile, repeatedMarkdownSentences, wordsBefore } from './helpers/published-report.js';

const md = publishedFile('commit-diff', 'report.md');

/** "9.68 s" or "606 ms" in ms, and half the last shown digit (the rounding it allows). */
function shownMs(s: string): { value: number; tolerance: number } {
  if (s.endsWith(' ms')) return { value: Number(s.slice(0, -3)), tolerance: 0.5 };
  return { value: Number(s.slice(0, -2)) * 1000, tolerance: 5 };
}

test('the first table is the summary, with the headline ratio and its interval in the first 200 words', (t) => {
  const [header, ...rows] = firstTable(md);
  t.deepEqual(header!.slice(0, 5), ['commit', 'base', 'naive P50', 'native P50', 'naive/native [95% CI]']);
  t.deepEqual(
    rows.map((r) => r[0]),
    ['initial', 'incremental'],
  );
  const headline = rows.find((r) => r[0] === 'incremental')![4]!;
  // printed to the decimals the bootstrap seeds agree on, with "seed ±" where even one decimal moves
  t.regex(headline, /^\d+\.\d\d× \[\d+(\.\d+)?, \d+(\.\d+)?(; seed ±\d+(\.\d+)?)?\]$/);
  t.true(wordsBefore(md, 200).includes(headline), headline);
});

test('the main text is within 1,500 words and no sentence of more than 12 words appears twice', (t) => {
  const words = markdownWords(mainMarkdown(md));
  t.log(`main text: ${words} words`);
  t.true(words <= 1500, `${words} words`);
  t.deepEqual(repeatedMarkdownSentences(md), []);
});

test('every number of the summary table is a row of ratios.csv', (t) => {
  const [, ...rows] = firstTable(md);
  const ratios = publishedCsv('commit-diff', 'ratios.csv');
  for (const r of rows) {
    const m = /^(\d+) MB in (\d+) files, 1 KB change$/.exec(r[1]!);
    t.truthy(m, r[1]);
    const row = ratios.find((x) => x['state'] === r[0] && x['total_mb'] === m![1] && x['file_count'] === m![2] && x['change_bytes'] === '1024')!;
    t.truthy(row, `${r[0]} ${r[1]}`);
    for (const [col, field] of [
      [2, 'naive_p50_ms'],
      [3, 'native_p50_ms'],
    ] as const) {
      const { value, tolerance } = shownMs(r[col]!);
      t.true(Math.abs(value - Number(row[field])) <= tolerance, `${r[0]} ${field}: ${r[col]} vs ${row[field]}`);
    }
    const q = /^(\d+\.\d\d)× \[(\d+(?:\.(\d+))?), (\d+(?:\.\d+)?)(?:; seed ±\d+(?:\.\d+)?)?\]$/.exec(r[4]!);
    t.truthy(q, r[4]);
    const digits = (q![3] ?? '').length;
    t.deepEqual([q![1], q![2], q![4]], [Number(row['ratio']).toFixed(2), Number(row['low']).toFixed(digits), Number(row['high']).toFixed(digits)]);
    // the verdict in docs/VERDICTS.md's words: "detected: naive slower" when the intervals decide it,
    // "naive slower, size uncertain" when every session alone has the direction, else "undecided: …"
    const established = row['detected'] === 'true' || (row['direction'] ?? '') !== '';
    t.is(!r[5]!.startsWith('undecided'), established, `${r[0]} established: ${r[5]}`);
    t.is(r[5]!.startsWith('detected'), row['detected'] === 'true', `${r[0]} detected: ${r[5]}`);
    t.is(r[5]!.includes('size uncertain'), row['detected'] !== 'true' && established, `${r[0]} size: ${r[5]}`);
  }
});

test("commits.csv holds every formal commit, and the summary's naive incremental P50 is the median of its rows", (t) => {
  const commits = publishedCsv('commit-diff', 'commits.csv');
  const [, ...rows] = firstTable(md);
  const r = rows.find((x) => x[0] === 'incremental')!;
  const m = /^(\d+) MB in (\d+) files/.exec(r[1]!)!;
  const walls = commits
    .filter(
      (c) =>
        c['method'] === 'naive' &&
        c['state'] === 'incremental' &&
        c['ok'] === 'true' &&
        c['total_mb'] === m[1] &&
        c['file_count'] === m[2] &&
        c['change_bytes'] === '1024',
    )
    .map((c) => Number(c['wall_ms']))
    .sort((p, q) => p - q);
  t.true(walls.length >= 2, `${walls.length} commits`);
  const mid = walls.length / 2;
  const median = walls.length % 2 ? walls[Math.floor(mid)]! : (walls[mid - 1]! + walls[mid]!) / 2;
  const { value, tolerance } = shownMs(r[2]!);
  t.true(Math.abs(median - value) <= tolerance, `${median} vs ${r[2]}`);
  t.true(md.includes('commits.csv'), 'the downloads line names commits.csv');
});
