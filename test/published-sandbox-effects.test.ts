// The committed sandbox-effects report (reports/sandbox-effects) read as a
// reader does: the tally is its first table, the main text is within 1,500
// words, no long sentence is said twice, the KVM reason is worded as in every
// report and stated once, and every number of the summary of measured rows
// traces to the published differences.csv and statistics.csv.
import test from 'ava';
import { KVM_UNAVAILABLE } from '../harness/publish/host-wording.js';
import { firstTable, mainMarkdown, markdownWords, publishedCsv, publishedFile, repeatedMarkdownSentences } from './helpers/published-report.js';

const md = publishedFile('sandbox-effects', 'report.md');

/** The rows of the first table after the given caption line (header first). */
function tableAfter(caption: string): string[][] {
  const at = md.indexOf(caption);
  return at < 0 ? [] : firstTable(md.slice(at));
}

test('the first table is the tally of the source rows', (t) => {
  const [header, row] = firstTable(md);
  t.deepEqual(header!.slice(0, 2), ['source rows', 'measured: same optimisation']);
  t.true(header!.includes('not runnable here') && header!.includes('missing from the pipeline'));
  const n = row!.map(Number);
  t.is(n[0], n[1]! + n[2]! + n[3]! + n[4]! + n[5]!, 'source rows = same + proxy + different + not runnable + missing');
});

test('the main text is within 1,500 words and no sentence of more than 12 words appears twice', (t) => {
  const words = markdownWords(mainMarkdown(md));
  t.log(`main text: ${words} words`);
  t.true(words <= 1500, `${words} words`);
  t.deepEqual(repeatedMarkdownSentences(md), []);
});

test('the KVM reason is worded as in every report and stated once', (t) => {
  t.is(md.split(KVM_UNAVAILABLE).length - 1, 1);
});

test('every number of the summary of measured rows is a row of differences.csv or statistics.csv', (t) => {
  const [header, ...rows] = tableAfter('**Measured rows.**');
  t.truthy(header);
  // columns by their header (a source column may stand before this run's); a P50 cell may name its far-out launches after a ';'
  const p50Col = header!.findIndex((h) => h.endsWith('P50 before → after'));
  const ratioCol = header!.indexOf('after/before [95% interval]');
  t.true(p50Col > 0 && ratioCol > p50Col, header!.join(' | '));
  const diffs = publishedCsv('sandbox-effects', 'differences.csv');
  const stats = publishedCsv('sandbox-effects', 'statistics.csv');
  let checked = 0;
  for (const r of rows) {
    const id = r[0]!.replace(/`/g, '');
    const p50 = (side: string): number => Number(stats.find((x) => x['cohort'] === id && x['path'] === side)!['p50']);
    const shown = (v: number): string => v.toFixed(v >= 100 ? 0 : 1);
    // a row's own unit (ms, MiB); thousands may be separated by commas
    const ba = /^([\d,]+(?:\.\d)?) → ([\d,]+(?:\.\d)?) (?:ms|MiB)(?:$|; )/.exec(r[p50Col]!);
    t.truthy(ba, r[p50Col]);
    t.deepEqual([ba![1]!.replace(/,/g, ''), ba![2]!.replace(/,/g, '')], [shown(p50('before')), shown(p50('after'))], id);
    const ratio = /^×(\d+\.\d\d) \[(\d+\.\d\d), (\d+\.\d\d)\]$/.exec(r[ratioCol]!);
    const d = diffs.find((x) => x['cohort'] === id && x['kind'] === 'median_ratio')!;
    t.deepEqual([ratio![1], ratio![2], ratio![3]], [Number(d['value']).toFixed(2), Number(d['low']).toFixed(2), Number(d['high']).toFixed(2)], id);
    checked++;
  }
  t.true(checked >= 1, `${checked} rows checked`);
});
