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

test('the first table is the summary, and the answer before it gives the headline comparison, cold shell, with its ratio', (t) => {
  const [header, ...rows] = firstTable(md);
  t.true(header![0]!.startsWith('Ready, a − b'), header![0]);
  t.true(rows.some((r) => r[0] === 'lowest Ready P50'));
  // the headline: docker − lazy, the source's question; its cold shell ratio is in the answer, above the table
  const col = header!.indexOf('shell cold');
  const cell = rows.find((r) => r[0] === 'docker − lazy')![col]!;
  const ratio = /×(\d+\.\d+)/.exec(cell)![1]!;
  const answer = md.split('\n').find((l) => l.startsWith('**Answer**'))!;
  t.true(md.indexOf(answer) < md.indexOf('| Ready, a − b'), 'the answer comes before the table');
  t.regex(answer, new RegExp(`cold shell \\(×${ratio.replace('.', '\\.')}\\)`));
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
