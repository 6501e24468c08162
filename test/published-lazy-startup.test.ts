// The committed default report (reports/lazy-startup) read as a reader does:
// the summary is its first table, the headline difference with its interval
// is in the first 200 words, the main text is within 2,500 words, no long
// sentence is said twice, and every number of the summary traces to the
// published differences.csv and statistics.csv.
import test from 'ava';
import {
  firstTable,
  mainMarkdown,
  markdownWords,
  publishedCsv,
  publishedFile,
  repeatedMarkdownSentences,
  summaryAgainstCsv,
  wordsBefore,
} from './helpers/published-report.js';

const md = publishedFile('lazy-startup', 'report.md');

test('the first table is the summary, with the headline difference in the first 200 words', (t) => {
  const [header, ...rows] = firstTable(md);
  t.deepEqual(header!.slice(0, 3), ['cohort', 'state', 'lowest Ready P50']);
  // the headline is the question as asked, on-demand reads with the runtime held fixed (oci-full − lazy), where
  // the summary has it, else docker − lazy; with or without the rerun interval (published before it, or after)
  const held = header!.findIndex((h) => h.startsWith('oci-full − lazy (runtime held fixed') && h.endsWith('P50 ratio'));
  const col = held > 0 ? held : header!.findIndex((h) => h.startsWith('docker − lazy, ms [95% CI]') && h.endsWith('P50 ratio'));
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
  const { checked, mismatches } = summaryAgainstCsv(
    header!,
    rows,
    publishedCsv('lazy-startup', 'differences.csv'),
    publishedCsv('lazy-startup', 'statistics.csv'),
  );
  t.deepEqual(mismatches, []);
  t.true(checked >= 8, `${checked} cells checked`);
});
