// The launch report's document on synthetic launches: the answer first (the
// summary is the first table, the headline difference within the first 200
// words), the main text within its budget, no long sentence twice, a section
// with nothing to say left out, and every number of the summary table traced
// to a row of the differences.csv the same report wrote.
import test from 'ava';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Block, ReportDocument, Table } from '../harness/document/document-model.js';
import { firstWords, mainWordCount, repeatedSentences } from '../harness/document/document-text.js';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import { reportDocumentOf } from './helpers/report-run.js';
import { summaryAgainstCsv } from './helpers/published-report.js';

let dir = '';
let doc: ReportDocument;
let reportDir = '';

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'benchgraph-launch-doc-'));
  ({ doc, reportDir } = await reportDocumentOf(dir));
});
test.after.always(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const tables = (blocks: readonly Block[]): Table[] => blocks.flatMap((b) => (b.kind === 'table' ? [b] : b.kind === 'section' ? tables(b.blocks) : []));
/** The summary: the opening's table. */
const summaryOf = (d: ReportDocument): Table => d.opening.find((b): b is Table => b.kind === 'table')!;
/** A summary cell: the row of a comparison (a − b), the column of a cohort and state. */
const summaryCell = (summary: Table, pair: string, column: string): string =>
  summary.rows.find((r) => r[0] === pair || r[0]!.startsWith(`${pair} (`))![summary.header.indexOf(column)]!;

test('the opening is the scope line, the answer, then the summary table and its legend, then at most five sentences of interpretation', (t) => {
  t.is(doc.opening[0]!.kind, 'paragraph');
  t.regex((doc.opening[0] as { text: string }).text, /^\*\*Scope:\*\* .+\*\*Design:\*\* \d+ session/);
  t.regex((doc.opening[1] as { text: string }).text, /^\*\*Answer\*\* \(Ready, by the verdicts below\)\. docker against lazy: /);
  const summary = doc.opening[2] as Table;
  t.is(summary.kind, 'table');
  t.is(tables([...doc.opening, ...doc.sections])[0], summary, 'the summary is the first table');
  t.is(summary.header[0], 'Ready, a − b: ms [95% CI], P50 ratio a/b');
  t.true(summary.header.includes('shell cold'));
  t.true(summary.rows.some((r) => r[0] === 'docker − lazy'));
  t.true(summary.rows.some((r) => r[0] === 'lowest Ready P50'));
  t.regex((doc.opening[3] as { text: string }).text, /^\*\*Reading the table\.\*\* Ready is the time/);
  const after = doc.opening.slice(4);
  t.true(after.every((b) => b.kind === 'paragraph'));
  t.true(after.length <= 5);
});

test('the headline difference with its interval is within the first 200 words', (t) => {
  const cell = summaryCell(summaryOf(doc), 'docker − lazy', 'shell cold');
  t.regex(cell, /^-?\d+\.\d \[-?\d+(\.\d+)?, -?\d+(\.\d+)?\](±\d+(\.\d)?)?/);
  t.true(firstWords(doc, 200).includes(cell.split(',')[0]!));
});

test('one run: the scope line says the intervals cover this run only and names the host-kind figure its rerun intervals assume', (t) => {
  const scope = (doc.opening[0] as { text: string }).text;
  t.regex(scope, /\*\*Rerun:\*\* 95% intervals cover this run's sessions and rounds only/);
  t.regex(scope, /With one run, it is assumed to be the host kind's: .*harness\/stats\/host-kind-drift\.ts/);
  // the rerun interval itself: the appendix "Every difference" (the summary keeps the 95% CI and the ratio)
  const every = doc.appendix.find((s) => s.title === 'Every difference')!.blocks.find((b) => b.kind === 'table') as Table;
  const col = every.header.indexOf('same-class rerun (ms)');
  t.true(col > 0);
  t.true(
    every.rows.every((r) => /^\[-?\d+(\.\d+)?, -?\d+(\.\d+)?\]$/.test(r[col]!)),
    String(every.rows.map((r) => r[col])),
  );
});

test('the main text is within the 2,500-word budget and says no sentence of more than 12 words twice', (t) => {
  t.true(mainWordCount(doc) <= 2500, `main text has ${mainWordCount(doc)} words`);
  t.deepEqual(repeatedSentences(doc), []);
});

test('a pipeline without a source reference, motivation or phase marks has no such sections', (t) => {
  const titles = doc.sections.map((s) => s.title);
  t.false(titles.includes('Against the source'));
  t.false(titles.includes('Where the cold time goes'));
  t.false(titles.some((x) => /Motivation/.test(x)));
  t.true(titles.includes('Method'));
});

test('every number in the summary table is the differences.csv row of its cohort, state and pair, rounded', async (t) => {
  const rows = parseCsvTable(await readFile(join(reportDir, 'differences.csv'), 'utf8')).rows;
  const stats = parseCsvTable(await readFile(join(reportDir, 'statistics.csv'), 'utf8')).rows;
  const summary = summaryOf(doc);
  const { checked, mismatches } = summaryAgainstCsv(summary.header, summary.rows, rows, stats);
  t.deepEqual(mismatches, []);
  t.true(checked >= 4, `${checked} summary cells checked`);
});
