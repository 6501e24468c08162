// The committed default report (reports/lazy-startup) read as a reader does:
// the summary is its first table, the headline difference with its interval
// is in the first 200 words, the main text is within 2,500 words, no long
// sentence is said twice, and every number of the summary traces to the
// published differences.csv and statistics.csv.
import test from 'ava';
import { firstTable, mainMarkdown, markdownWords, publishedCsv, publishedFile, repeatedMarkdownSentences, wordsBefore } from './helpers/published-report.js';

const md = publishedFile('lazy-startup', 'report.md');

test('the first table is the summary, with the headline difference in the first 200 words', (t) => {
  const [header, ...rows] = firstTable(md);
  t.deepEqual(header!.slice(0, 3), ['cohort', 'state', 'lowest Ready P50']);
  const col = header!.indexOf('docker − lazy, ms [95% CI], P50 ratio');
  t.true(col > 0);
  const cell = rows.find((r) => r[0] === 'shell' && r[1] === 'cold')![col]!;
  t.true(wordsBefore(md, 200).includes(cell.split(',')[0]!), cell);
});

test('the main text is within 2,500 words and no sentence of more than 12 words appears twice', (t) => {
  const words = markdownWords(mainMarkdown(md));
  t.log(`main text: ${words} words`);
  t.true(words <= 2500, `${words} words`);
  t.deepEqual(repeatedMarkdownSentences(md), []);
});

test('every number of the summary table is a row of differences.csv or statistics.csv', (t) => {
  const [header, ...rows] = firstTable(md);
  const diffs = publishedCsv('lazy-startup', 'differences.csv');
  const stats = publishedCsv('lazy-startup', 'statistics.csv');
  let checked = 0;
  header!.forEach((h, i) => {
    const pair = /^(\S+) − (\S+), ms/.exec(h);
    if (!pair) return;
    for (const r of rows) {
      const m = /^(-?\d+\.\d) \[(-?\d+\.\d), (-?\d+\.\d)\](?:, ×(\d+\.\d+))?/.exec(r[i]!);
      if (!m) continue;
      const row = diffs.find(
        (x) =>
          x['kind'] === 'median_difference' &&
          x['cohort'] === r[0] &&
          x['state'] === r[1] &&
          x['metric'] === 'ready' &&
          x['a'] === pair[1] &&
          x['b'] === pair[2],
      )!;
      t.truthy(row, `${r[0]} ${r[1]} ${h}`);
      t.deepEqual([m[1], m[2], m[3]], [Number(row['value']).toFixed(1), Number(row['low']).toFixed(1), Number(row['high']).toFixed(1)]);
      if (m[4]) {
        const p50 = (path: string): number =>
          Number(stats.find((x) => x['cohort'] === r[0] && x['state'] === r[1] && x['metric'] === 'ready' && x['path'] === path)!['p50']);
        const ratio = p50(pair[1]!) / p50(pair[2]!);
        t.is(m[4], ratio.toFixed(ratio >= 10 ? 1 : 2));
      }
      checked++;
    }
  });
  t.true(checked >= 8, `${checked} cells checked`);
});
