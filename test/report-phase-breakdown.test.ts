// "Where the cold time goes" and phases.csv (issue 20): each span with its
// interval, each difference span by span, and every launch's marks and spans
// as CSV rows described by their schema. Made-up samples (our own logic).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { analysisRules } from '../harness/config/analysis-rules.js';
import { analyzeSamples } from '../harness/analysis/analyze-samples.js';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import type { Table } from '../harness/document/document-model.js';
import { phaseBreakdown, phaseBreakdownDefinition, phaseMarksText } from '../harness/report/phase-breakdown.js';
import { phasesColumns, phasesCsv } from '../harness/report/render-csv.js';
import { madeUpPhaseSamples } from './helpers/phase-samples.js';

const rules = analysisRules({
  bootstrap: { resamples: 300, seed: 'breakdown' },
  comparisons: [
    { a: 'docker', b: 'lazy' },
    { a: 'oci-full', b: 'lazy' },
  ],
});
const a = analyzeSamples(madeUpPhaseSamples(3, 6), rules, null);

test('phases.csv has exactly the columns its schema describes', (t) => {
  const schema = JSON.parse(readFileSync('schemas/report-phases.schema.json', 'utf8')) as { properties: Record<string, unknown> };
  t.deepEqual([...phasesColumns], Object.keys(schema.properties));
  t.deepEqual(parseCsvTable(phasesCsv(a)!).header, [...phasesColumns]);
});

test("phases.csv has a row per launch and mark, then the launch's Ready, and a launch's spans add up to its Ready", (t) => {
  const rows = parseCsvTable(phasesCsv(a)!).rows;
  const byLaunch = new Map<string, typeof rows>();
  for (const r of rows) byLaunch.set(r['launch_id']!, [...(byLaunch.get(r['launch_id']!) ?? []), r]);
  t.is(byLaunch.size, 3 * 3 * 6, 'every valid formal launch');
  for (const [id, list] of byLaunch) {
    const last = list[list.length - 1]!;
    t.is(last['mark'], 'ready');
    t.is(last['span'], 'to Ready');
    const sum = list.reduce((s, r) => s + Number(r['span_ms']), 0);
    t.true(Math.abs(sum - Number(last['at_ms'])) < 0.01, `${id}: spans ${sum} vs Ready ${last['at_ms']}`);
  }
  const firstLaunch = (path: string): typeof rows => rows.filter((r) => r['launch_id'] === rows.find((x) => x['path'] === path)!['launch_id']);
  t.deepEqual(
    firstLaunch('oci-full').map((r) => [r['mark'], r['span']]),
    [
      ['copy-done', 'copy'],
      ['unpack-done', 'unpack'],
      ['ready', 'to Ready'],
    ],
  );
  t.deepEqual(
    firstLaunch('lazy').map((r) => [r['mark'], r['span']]),
    [['ready', 'to Ready']],
  );
});

test('each span is shown with its median and interval, and each difference span by span', (t) => {
  const blocks = phaseBreakdown(a, 'shell', 1);
  t.is(blocks.length, 2);
  const [cells, diffs] = blocks as Table[];
  const oci = cells!.rows.find((r) => r[0] === 'oci-full')!;
  const unpack = a.spans.find((s) => s.path === 'oci-full' && s.name === 'unpack')!;
  t.true(oci[3]!.includes(`unpack ${unpack.p50Ms!.toFixed(1)} [${unpack.lowMs!.toFixed(1)}, ${unpack.highMs!.toFixed(1)}]`), oci[3]);
  t.false(
    cells!.rows.some((r) => r[0] === 'lazy'),
    'a path without marks has no span row',
  );
  const docker = diffs!.rows.find((r) => r[0] === 'docker − lazy')!;
  const pull = a.spanDifferences.find((d) => d.a === 'docker' && d.name === 'pull')!;
  t.regex(docker[3]!, new RegExp(`^pull ${pull.observedMs!.toFixed(1)} \\[`));
  t.regex(docker[3]!, /; to Ready -\d+\.\d \[/);
});

test('the breakdown says where the time is, in no causal words, and is left out for a cohort without marks', (t) => {
  const text = [
    phaseBreakdownDefinition(phaseMarksText(a)!),
    ...phaseBreakdown(a, 'shell', 1).flatMap((b) => (b.kind === 'table' ? [b.caption ?? '', ...b.header, ...b.rows.flat()] : [])),
  ].join(' ');
  t.notRegex(text, /\b(because|due to|caused?|causes|results? in|leads? to)\b/i);
  t.deepEqual(phaseBreakdown(a, 'numpy', 1), []);
});

test('a run whose paths print no phase marks writes no phases.csv', (t) => {
  const data = madeUpPhaseSamples(2, 3);
  const none = analyzeSamples({ ...data, marks: [] }, rules, null);
  t.true(none.launchSpans.length > 0);
  t.is(phasesCsv(none), null);
});
