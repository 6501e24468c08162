// Our own report logic on made-up rows (no measurement): the effect report
// as a document opens with the tally, keeps its main text short and says no
// long sentence twice, words a shared not-runnable reason once, flags a
// failed negative control, calls a small detected effect too small to keep,
// and its summary numbers are rows of the CSVs it writes.
import test from 'ava';
import type { EffectRow } from '../harness/config/effects-section.js';
import { effectCell } from '../harness/sandbox/effect-cell.js';
import { madeUpEffectRow, madeUpEffectRows } from './helpers/effect-rows.js';
import type { ReportedRow } from '../harness/sandbox/effect-table-md.js';
import { triedAndDropped } from '../harness/sandbox/tried-and-dropped.js';
import { effectReportDocument, SUMMARY_HEADER, TALLY_HEADER, type EffectDocumentInput } from '../harness/sandbox/effect-report-document.js';
import { effectReportNotes, noteOf } from '../harness/sandbox/effect-row-notes.js';
import { pairedDotPlot, ratioForestPlot } from '../harness/sandbox/effect-plots.js';
import { renderSvg } from '../harness/publish/plot-adapter.js';
import { DEFAULT_PRACTICAL_FLOOR, practicalFloor } from '../harness/sandbox/practical-floor.js';
import { practicalMargin } from '../harness/config/practical-margin.js';
import { effectCsvs } from '../harness/sandbox/effect-csvs.js';
import { mainTexts, mainWordCount, repeatedSentences } from '../harness/document/document-text.js';
import { renderMarkdown } from '../harness/document/render-markdown.js';
import type { Block, Table } from '../harness/document/document-model.js';
import { KVM_UNAVAILABLE } from '../harness/publish/host-wording.js';
import { parseCsvTable } from '../harness/compare/csv-table.js';

function measured(id: string, factor: number, system: EffectRow['system'] = 'gVisor', requires: string[] = []): ReportedRow {
  const row = { ...madeUpEffectRow(id, system), requires };
  const samples = madeUpEffectRows(
    id,
    { sessions: 3, rounds: 7 },
    (u) => 400 + 4 * u,
    (u) => (400 + 4 * u) * factor,
  );
  const cell = effectCell(row, samples, { resamples: 400, confidence: 0.95, seed: id });
  return { row, state: 'measured', cell, verdict: triedAndDropped(cell, false), failures: { before: 0, after: 0 }, facts: {} };
}

const notRunnable = (id: string, system: EffectRow['system'], requires: string[]): ReportedRow => ({
  row: { ...madeUpEffectRow(id, system), requires },
  state: 'not-runnable',
  reasons: requires.map((r) => `${r}: the doctor's long reason for ${r}, pasted into every row that lacks it`),
});

const rows: ReportedRow[] = [
  measured('halved', 0.5),
  measured('three-percent', 0.97),
  measured('control-shifted', 1.07),
  measured('unchanged', 1),
  notRunnable('no-flag', 'gVisor', ['runsc-flag']),
  ...Array.from({ length: 12 }, (_, i) => notRunnable(`fc-${i}`, 'Firecracker', ['firecracker', 'kvm'])),
];

const input: EffectDocumentInput = {
  title: 'sandbox-effects',
  question: 'Which optimizations show an effect here?',
  scope: 'one host, real gVisor; 3 sessions × 7 paired rounds per measured row',
  design: { sessions: 3, rounds: 7, seed: 's', order: 'balanced' },
  rows,
  notes: effectReportNotes({
    rows: { 'control-shifted': { relation: 'different', control: true, why: 'A negative control.' }, halved: { relation: 'proxy', why: 'A stand-in.' } },
    missing: [{ id: 'branched', name: 'A branched parent', system: 'gVisor', source: 's', reason: 'never written', needs: 'a new row' }],
  }),
  requirements: [
    { id: 'runsc-flag', part: 'a runsc flag', met: false, detail: 'runsc has no such flag' },
    { id: 'firecracker', part: 'firecracker on PATH', met: false, detail: 'not installed' },
    { id: 'kvm', part: 'usable /dev/kvm', met: false, detail: '/dev/kvm opens, but the CPU shows no vmx or svm flag' },
  ],
  floor: DEFAULT_PRACTICAL_FLOOR,
  unmeasured: ['zswap (no swap device).'],
  reportNotes: ['Measured on a quiet machine.'],
  provenance: ['benchgraph commit abc (clean)'],
  plots: [],
};
const doc = effectReportDocument(input);
const tables = (blocks: readonly Block[]): Table[] => blocks.flatMap((b) => (b.kind === 'table' ? [b] : b.kind === 'section' ? tables(b.blocks) : []));
const summary = tables(doc.opening)[1]!;
const summaryOf = (id: string): readonly string[] => summary.rows.find((r) => r[0] === `\`${id}\``)!;
const verdictCol = SUMMARY_HEADER.indexOf('verdict');

test('the tally is the first table: source rows, same, proxy, different, not runnable, missing, controls', (t) => {
  const first = tables([...doc.opening, ...doc.sections])[0]!;
  t.deepEqual(first.header, TALLY_HEADER);
  // 3 measured source rows (the control is not one) + 13 not runnable + 1 missing.
  t.deepEqual(first.rows, [['17', '2', '1', '0', '13', '1', '1']]);
});

test('the main text is within 1,500 words and no sentence of more than 12 words appears twice', (t) => {
  t.log(`main text: ${mainWordCount(doc)} words`);
  t.true(mainWordCount(doc) <= 1500);
  t.deepEqual(repeatedSentences(doc), []);
});

test('a negative control with an injected 7% effect is flagged control failed', (t) => {
  t.is(summaryOf('control-shifted')[verdictCol], '**control failed**');
  t.regex(doc.opening.map((b) => (b.kind === 'paragraph' ? b.text : '')).join(' '), /negative control `control-shifted` failed/);
});

test('a detected 3% effect is too small to keep under the default floor, not kept', (t) => {
  const r = rows.find((x) => x.row.id === 'three-percent')!;
  t.true(r.state === 'measured' && r.verdict.detected);
  t.is(summaryOf('three-percent')[verdictCol], 'too small to keep');
  t.is(summaryOf('halved')[verdictCol], 'effect shown (proxy)', 'a proxy shows an effect; "kept" is for a row that tests the optimisation itself');
  t.is(summaryOf('unchanged')[verdictCol], 'dropped (not detected)');
});

test('the shared Firecracker and KVM reasons appear once each, in the whole report, with every row listed', (t) => {
  const md = renderMarkdown(doc);
  t.is(md.split(KVM_UNAVAILABLE).length - 1, 1);
  t.is(md.split('firecracker is not installed').length - 1, 1);
  t.notRegex(md, /pasted into every row/);
  const kvmLine = tables(doc.sections)
    .flatMap((x) => x.rows)
    .find((r) => r[0] === KVM_UNAVAILABLE)!;
  t.is(kvmLine[1]!.split(', ').length, 12);
});

test('a missing source row is listed with its reason in the main text', (t) => {
  t.true(mainTexts(doc).some((s) => s.includes('A branched parent (branched) gVisor never written')));
});

test('every number of the summary table equals a row of the differences.csv and statistics.csv the report writes', (t) => {
  const csvs = effectCsvs(rows.filter((r) => r.state === 'measured') as never);
  const diffs = parseCsvTable(csvs.differences).rows;
  const stats = parseCsvTable(csvs.statistics).rows;
  let checked = 0;
  for (const r of summary.rows) {
    const id = r[0]!.replace(/`/g, '');
    const [, before, after] = /^(\d+(?:\.\d)?) → (\d+(?:\.\d)?) ms$/.exec(r[SUMMARY_HEADER.indexOf('this run: P50 before → after')]!)!;
    const p50 = (side: string): number => Number(stats.find((x) => x['cohort'] === id && x['path'] === side)!['p50']);
    t.is(before, p50('before').toFixed(p50('before') >= 100 ? 0 : 1));
    t.is(after, p50('after').toFixed(p50('after') >= 100 ? 0 : 1));
    const [, v, lo, hi] = /^×(\d\.\d\d) \[(\d\.\d\d), (\d\.\d\d)\]$/.exec(r[SUMMARY_HEADER.indexOf('after/before [95% interval]')]!)!;
    const d = diffs.find((x) => x['cohort'] === id && x['kind'] === 'median_ratio')!;
    t.deepEqual([v, lo, hi], [Number(d['value']).toFixed(2), Number(d['low']).toFixed(2), Number(d['high']).toFixed(2)]);
    checked++;
  }
  t.is(checked, 4);
});

test('the practical floor is configurable: under analysis.practical of 2% and 0 ms the detected 3% effect is kept', (t) => {
  const r = rows.find((x) => x.row.id === 'three-percent')!;
  t.true(r.state === 'measured');
  if (r.state !== 'measured') return;
  t.is(triedAndDropped(r.cell, false, practicalFloor(practicalMargin({ min_ratio_change: 0.02, min_ms: 0 }))).outcome, 'kept');
  t.is(triedAndDropped(r.cell, false, practicalFloor(practicalMargin({}))).outcome, 'too-small');
});

test('the paired dot plot and the ratio forest plot render within 1,000 px, the forest with the floor band', async (t) => {
  const m = rows.filter((r): r is Extract<ReportedRow, { state: 'measured' }> => r.state === 'measured');
  const samples = m.flatMap((r) =>
    madeUpEffectRows(
      r.row.id,
      { sessions: 3, rounds: 7 },
      (u) => 400 + 4 * u,
      (u) => 400 + 4 * u,
    ),
  );
  const plots = [pairedDotPlot(m, samples), ratioForestPlot(m, (id) => noteOf(input.notes, id), DEFAULT_PRACTICAL_FLOOR)];
  for (const p of plots) {
    t.truthy(p);
    const svg = await renderSvg(p!.spec);
    const width = Number(/<svg[^>]* width="(\d+(?:\.\d+)?)"/.exec(svg)![1]);
    t.true(width <= 1000, `${p!.file}: ${width} px`);
  }
  t.regex(JSON.stringify(plots[1]!.spec), /"a":0\.95,"b":1\.05/);
});
