// Every side of every sandbox-effects row says what its P50 and P90 do not:
// its far-out launches (beyond the quartiles by 3 IQR and more than 5% from
// the median, NumPy's 'linear' quartiles as the independent reference) are named with their session, and
// the cluster rule with its minimum group size splits the other launches.
// On the published samples, restore-page-cache's "before" side names the two
// launches its P90 hides. The source's own figure stands beside each row.
// Then made-up sides (our own logic): a split side is split even under two
// extreme launches, and three groups of 3, 4 and 3 launches are no clusters.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { loadPipeline } from '../harness/config/load-pipeline.js';
import { knownStageKinds } from '../harness/engine/stage-registry.js';
import type { SampleRow } from '../harness/db/sample-row.js';
import { effectCell } from '../harness/sandbox/effect-cell.js';
import { farOutText, shapePhrase, sourceFigureCell } from '../harness/sandbox/effect-phrases.js';
import { effectReportNotes, noteOf } from '../harness/sandbox/effect-row-notes.js';
import { effectReportDocument, SUMMARY_HEADER, summaryRows } from '../harness/sandbox/effect-report-document.js';
import type { MeasuredRow } from '../harness/sandbox/effect-table-md.js';
import { triedAndDropped } from '../harness/sandbox/tried-and-dropped.js';
import { sideShape } from '../harness/sandbox/side-shape.js';
import { defaultClusterRule } from '../harness/stats/cluster-rule.js';
import { grouped } from '../harness/publish/format-number.js';
import { DEFAULT_PRACTICAL_FLOOR } from '../harness/sandbox/practical-floor.js';
import { publishedFile } from './helpers/published-report.js';
import { parseSampleCsv } from '../harness/analysis/parse-sample-csv.js';

const cfg = loadPipeline('pipelines/sandbox-effects.yaml', { knownKinds: knownStageKinds() });
const samples: SampleRow[] = parseSampleCsv(publishedFile('sandbox-effects', 'samples.csv'), 'reports/sandbox-effects/samples.csv');
const measuredIds = [...new Set(samples.filter((s) => s['phase'] === 'formal').map((s) => String(s['cohort'])))];
const rowsOf = cfg.effects!.rows.filter((r) => measuredIds.includes(r.id));
const measured: MeasuredRow[] = rowsOf.map((row) => {
  const cell = effectCell(row, samples, { resamples: 200, confidence: 0.95, seed: row.id }, defaultClusterRule);
  return { row, state: 'measured', cell, verdict: triedAndDropped(cell, row.p90 === true), failures: { before: 0, after: 0 }, facts: {} };
});

/** Each side's formal valid values of its row's metric (Ready, or a printed value such as held MiB), in samples.csv order. */
const sideValues = (id: string, side: string): number[] => {
  const metric = cfg.effects!.rows.find((r) => r.id === id)!.metric;
  const column = metric === 'ready' ? 'ready_ms' : metric === 'completion' ? 'completion_ms' : 'value';
  return samples.filter((s) => s['cohort'] === id && s['path'] === side && s['phase'] === 'formal' && s['ok'] === true).map((s) => s[column] as number);
};

// Debian's python3 with python3-numpy (installed by setup.sh) is the independent reference.
const numpyFarOut = (sides: number[][]): number[][] =>
  JSON.parse(
    execFileSync(
      '/usr/bin/python3',
      [
        '-c',
        [
          'import json, sys',
          'import numpy as np',
          'out = []',
          'for v in json.load(sys.stdin):',
          '    a = np.array(v, dtype=float)',
          '    q1, q3 = np.percentile(a, [25, 75])',
          '    k = 3 * (q3 - q1)',
          '    m = np.sort(a)[(len(a) - 1) // 2]',
          '    out.append(sorted(a[((a < q1 - k) | (a > q3 + k)) & (np.abs(a - m) > 0.05 * abs(m))].tolist()))',
          'print(json.dumps(out))',
        ].join('\n'),
      ],
      { input: JSON.stringify(sides) },
    ).toString(),
  ) as number[][];

test("every side's far-out launches on the published samples are NumPy's, outside its quartiles by 3 IQR and more than 5% from its median", (t) => {
  const sides = measured.flatMap((m) => (['before', 'after'] as const).map((side) => ({ m, side })));
  const reference = numpyFarOut(sides.map(({ m, side }) => sideValues(m.row.id, side)));
  t.true(sides.length >= 10, `${sides.length} sides`);
  sides.forEach(({ m, side }, i) => {
    const ours = m.cell.shape![side].farOut.map((l) => l.value).sort((x, y) => x - y);
    t.deepEqual(ours, reference[i]!, `${m.row.id} ${side}`);
  });
});

test('a side with far-out launches names them, with their session, in its summary row (the published run’s first such side)', (t) => {
  const found = measured
    .flatMap((m) => (['before', 'after'] as const).map((side) => ({ m, side, shape: m.cell.shape?.[side] })))
    .find((x) => (x.shape?.farOut.length ?? 0) >= 1);
  t.truthy(found?.shape?.farOut.length, 'the published run has a side with a far-out launch');
  const { m, side, shape } = found!;
  const values = sideValues(m.row.id, side).sort((x, y) => y - x);
  // the far-out launches are the side's most extreme, its largest or its smallest (the run of 2026-12-07 has two low
  // ones), and the summary names each with its session
  const far = shape!.farOut.map((l) => l.value).sort((x, y) => y - x);
  const k = far.length;
  t.true(
    JSON.stringify(far) === JSON.stringify(values.slice(0, k)) || JSON.stringify(far) === JSON.stringify(values.slice(-k)),
    `${far.join(', ')} among ${values.join(', ')}`,
  );
  const sessions = [...new Set(shape!.farOut.map((l) => l.session))];
  const phrase = farOutText(shape!, m.row.unit)!;
  t.is(phrase, `far out ${shape!.farOut.map((l) => grouped(l.value)).join(' and ')} ${m.row.unit} (session ${sessions.join(' and ')})`);
  const notes = effectReportNotes(cfg.report);
  const row = summaryRows({ ...input(notes), rows: measured }).find((r) => r[0] === `\`${m.row.id}\``)!;
  const cell = row[SUMMARY_HEADER.indexOf('this run: P50 before → after')]!;
  t.true(cell.includes(`${side}: ${phrase}`), cell);
  t.log(`${m.row.id} ${side}: ${cell}`);
});

test("the source's own figure stands beside this run's in the summary, and each is a number of the row's source text", (t) => {
  const notes = effectReportNotes(cfg.report);
  const rows = summaryRows({ ...input(notes), rows: measured });
  const col = SUMMARY_HEADER.indexOf('source: before → after');
  t.is(col + 1, SUMMARY_HEADER.indexOf('this run: P50 before → after'), 'side by side');
  let withFigure = 0;
  for (const m of measured) {
    const note = noteOf(notes, m.row.id);
    const cell = rows.find((r) => r[0] === `\`${m.row.id}\``)![col]!;
    if (note.control) {
      t.is(cell, 'no effect expected', m.row.id);
      continue;
    }
    t.truthy(note.sourceFigure, `${m.row.id} has a source figure`);
    t.is(cell, sourceFigureCell(note.sourceFigure, m.row.unit));
    const f = note.sourceFigure!;
    // every number is the source's own: in its text as written, in ms or in s
    for (const v of [f.before, f.after].filter((x): x is number => x !== null))
      t.true(new RegExp(`(?<![\\d.])(${v}|${v / 1000})(?![\\d])`).test(m.row.source), `${m.row.id}: ${v} in "${m.row.source}"`);
    if (f.text) t.true(m.row.source.includes(f.text), `${m.row.id}: "${f.text}" in "${m.row.source}"`);
    withFigure++;
  }
  t.true(withFigure >= 4);
  const pageCache = rows.find((r) => r[0] === '`restore-page-cache`')![col]!;
  const f = noteOf(notes, 'restore-page-cache').sourceFigure!;
  t.is(pageCache, `${f.before} → ${f.after} ms, ×${(f.after! / f.before!).toFixed(2)}`);
});

test('made-up sides (our own logic): a bimodal side splits even under two extreme launches, which are named, not clustered', (t) => {
  const launches = [...Array.from({ length: 13 }, (_, i) => 453 + 4 * i), ...Array.from({ length: 8 }, (_, i) => 900 + 10 * i), 20_000, 80_000].map(
    (value, i) => ({ session: 1 + (i % 3), round: i, value }),
  );
  const s = sideShape(launches, defaultClusterRule);
  t.deepEqual(
    s.farOut.map((l) => l.value),
    [80_000, 20_000],
  );
  t.true(s.split);
  t.deepEqual(
    s.groups.map((g) => g.n),
    [13, 8],
  );
  t.is(
    shapePhrase({ row: { unit: 'ms' }, cell: { shape: { before: s, after: sideShape([], defaultClusterRule) } } } as unknown as MeasuredRow),
    'before: far out 80,000 and 20,000 ms (sessions 1 and 2); 2 clusters: 13 at 453–501, 8 at 900–970 ms',
  );
});

test('made-up sides (our own logic): groups of 3, 4 and 3 launches are below the minimum group size, so the side does not split', (t) => {
  const launches = [100, 101, 102, 200, 201, 202, 203, 300, 301, 302].map((value, i) => ({ session: 1, round: i, value }));
  const s = sideShape(launches, defaultClusterRule);
  t.false(s.split);
  t.deepEqual(s.farOut, []);
  t.is(shapePhrase({ row: { unit: 'ms' }, cell: { shape: { before: s, after: s } } } as unknown as MeasuredRow), null);
});

test('the Method says how a side is shaped, once, with the cluster rule it used', (t) => {
  const doc = effectReportDocument({ ...input(effectReportNotes(cfg.report)), rows: measured });
  const method = doc.appendix.find((s) => s.title === 'Method')!;
  const text = method.blocks.map((b) => (b.kind === 'paragraph' ? b.text : '')).join(' ');
  t.regex(text, /beyond its quartiles by 3 interquartile ranges \(Tukey's far-out fences\)/);
  t.regex(text, /groups of at least 15% and 5 launches each/);
});

function input(notes: ReturnType<typeof effectReportNotes>) {
  return {
    title: 'sandbox-effects',
    question: 'q',
    scope: 's',
    design: { sessions: 3, rounds: 7, seed: 's', order: 'balanced' },
    rows: measured,
    notes,
    requirements: [],
    floor: DEFAULT_PRACTICAL_FLOOR,
    unmeasured: [],
    reportNotes: [],
    provenance: [],
    plots: [],
  };
}

test('where almost every launch gives the same whole value, the few one unit away are not far out (within 5% of the median)', (t) => {
  const launches = [...Array.from({ length: 20 }, (_, i) => 395 + (i % 10 === 0 ? 1 : 0)), 396, 396].map((value, i) => ({
    session: 1 + (i % 3),
    round: i,
    value,
  }));
  const s = sideShape(launches, defaultClusterRule);
  t.deepEqual(s.farOut, []);
  const wild = sideShape([...launches, { session: 2, round: 99, value: 600 }], defaultClusterRule);
  t.deepEqual(
    wild.farOut.map((l) => l.value),
    [600],
  );
});
