// The magnitude part of a verdict against the source (analysis/source-verdicts.ts
// magnitudeFinding): it holds only when this run's effect over the source's lies
// within the finding's band [1/tolerance_ratio, tolerance_ratio]; it is judged only
// where both runs detect the same direction, so overlapping intervals or a shared
// sign are never a match. Then the report's tally counts the source's own findings
// and their stand-in twins apart. Made-up differences, shaped like the published
// default experiment's (a test of our own rule and wording, not of a statistic).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import type { DifferenceResult } from '../harness/analysis/analysis-result.js';
import { judgeSource, magnitudeBand, magnitudeFinding, sourceReference, type JudgedAnalysis } from '../harness/analysis/source-verdicts.js';
import { judgeFindings, magnitudeCell, verdictCell } from '../harness/report/source-findings.js';
import { sourceTallySentence } from '../harness/report/launch-phrases.js';
import type { AnalysisResult } from '../harness/analysis/analysis-result.js';

const made = (cohort: string, state: string, a: string, b: string, observedMs: number, lowMs: number, highMs: number, detected: boolean): DifferenceResult =>
  ({ cohort, state, metric: 'ready', a, b, observedMs, lowMs, highMs, detected, confidence: 0.95 }) as unknown as DifferenceResult;

// this run's figures as the published default run has them (reports/lazy-startup/differences.csv)
const analysis: JudgedAnalysis = {
  cells: [],
  dominance: [],
  bytes: [],
  differences: [
    made('numpy', 'warm', 'docker', 'gvisor-lazy', -597.9, -723.8, -388.2, true),
    made('numpy', 'cold', 'docker', 'gvisor-lazy', -431.6, -1015.4, 29.3, false),
    made('numpy', 'cold', 'docker', 'lazy', 2133.1, 1537.2, 2346.9, true),
    made('numpy', 'warm', 'docker', 'lazy', 166.7, 129.4, 214.6, true),
    made('shell', 'cold', 'docker', 'lazy', 2797.2, 2137.6, 3056.3, true),
    made('shell', 'cold', 'docker', 'gvisor-lazy', 2665.1, 2002.8, 2929.8, true),
  ],
};

const finding = (id: string, state: string, value: number | undefined, low: number, high: number, cohort = 'numpy', toleranceRatio = 1.25) => ({
  id,
  cohort,
  state: state as 'cold' | 'warm',
  metric: 'ready' as const,
  kind: 'difference' as const,
  a: 'docker',
  b: 'gvisor-lazy',
  value,
  low,
  high,
  toleranceRatio,
  statement: id,
  notComparable: null,
});

test('the band is [1/tolerance, tolerance] and a ratio on its edge holds, one beyond it does not', (t) => {
  t.deepEqual(magnitudeBand(1.25), [0.8, 1.25]);
  t.true(magnitudeFinding(1.25, 1.25, true).held);
  t.true(magnitudeFinding(0.8, 1.25, true).held);
  t.false(magnitudeFinding(1.2501, 1.25, true).held);
  t.false(magnitudeFinding(0.7999, 1.25, true).held);
  t.false(magnitudeFinding(null, 1.25, true).held, 'no ratio, no match');
  const none = magnitudeFinding(1, 1.25, false);
  t.deepEqual([none.held, none.judged, none.ratio], [false, false, null], 'not judged: no size, no ratio, even one of 1');
});

test('numpy warm docker − gvisor-lazy at ×1.50 the source is not the same size, though both detect it and the intervals overlap', (t) => {
  const v = judgeSource(finding('numpy-warm-difference (gvisor-lazy)', 'warm', -399.7, -408.0, -389.8), analysis);
  t.is(v.direction, 'held');
  t.true(v.magnitude!.overlap!, 'the intervals overlap');
  t.true(v.magnitude!.judged);
  t.is(v.magnitude!.ratio!.toFixed(2), '1.50');
  t.false(v.magnitude!.held);
  t.is(v.verdict, 'differs');
  t.is(magnitudeCell({ ...v, source: '', ours: '' }), "×1.50 the source's, outside ×0.80–×1.25");
  // with a band the finding declares wider, the same ratio holds: the threshold is the finding's, not the report's
  const wide = judgeSource(finding('wide', 'warm', -399.7, -408.0, -389.8, 'numpy', 1.6), analysis);
  t.true(wide.magnitude!.held);
  t.is(magnitudeCell({ ...wide, source: '', ours: '' }), "held: ×1.50 the source's (band ×0.63–×1.60)");
});

test('−431.6 against −135.3 ms, neither detected, holds in direction but its size is not judged, never "same size"', (t) => {
  const v = judgeSource(finding('numpy-cold-difference (gvisor-lazy)', 'cold', -135.3, -204.1, 176.7), analysis);
  t.is(v.direction, 'held');
  t.false(v.magnitude!.judged);
  t.false(v.magnitude!.held);
  t.is(v.magnitude!.ratio, null);
  t.is(v.verdict, 'agrees', 'the source found no difference, nor does this run');
  const worded = { ...v, source: '', ours: '' };
  t.is(magnitudeCell(worded), 'not judged: neither run detects an effect');
});

test('a difference detected the same way whose intervals overlap but whose ratio lies outside the band differs in magnitude', (t) => {
  // the source's interval [1000, 3000] overlaps this run's [2002.8, 2929.8]; this run's 2665.1 over the centre 2000 is ×1.33
  const v = judgeSource(finding('shell-overlap', 'cold', undefined, 1000, 3000, 'shell'), analysis);
  t.true(v.magnitude!.overlap!);
  t.false(v.magnitude!.held);
  t.is(v.verdict, 'differs');
  const inside = judgeSource(finding('shell-inside', 'cold', 2500, 2400, 2600, 'shell'), analysis);
  t.true(inside.magnitude!.held, `×${inside.magnitude!.ratio}`);
  t.is(inside.verdict, 'agrees');
});

test("the tally counts the source's 8 findings and their 4 stand-in twins apart, and a finding without a size is never held in magnitude", (t) => {
  const diff = (id: string, cohort: string, state: string, value: number | undefined, low: number, high: number) => ({
    id,
    cohort,
    state,
    kind: 'difference',
    a: 'docker',
    b: 'lazy',
    value,
    low,
    high,
    statement: id,
  });
  const reference = {
    source: 'made up',
    findings: [
      { id: 'shell-cold-p50', cohort: 'shell', state: 'cold', kind: 'p50', a: 'lazy', value: 183.7, statement: 'p50' },
      { id: 'shell-cold-dominance', cohort: 'shell', state: 'cold', kind: 'dominance', a: 'lazy', b: 'docker', statement: 'dominance' },
      diff('shell-cold-difference', 'shell', 'cold', undefined, 389.2, 833.9),
      diff('shell-warm-difference', 'shell', 'warm', undefined, -86.1, -48.2),
      { id: 'shell-cold-content', cohort: 'shell', state: 'cold', kind: 'content-reduction', a: 'docker', b: 'lazy', value: 0.938, statement: 'c' },
      diff('numpy-cold-difference', 'numpy', 'cold', -135.3, -204.1, 176.7),
      diff('numpy-warm-difference', 'numpy', 'warm', -399.7, -408.0, -389.8),
      { id: 'numpy-cold-content', cohort: 'numpy', state: 'cold', kind: 'content-reduction', a: 'docker', b: 'lazy', value: 0.681, statement: 'c' },
    ],
  };
  const ref = sourceReference(reference, { standIns: { lazy: 'gvisor-lazy' }, notComparable: { 'shell-cold-p50': 'a VM' } })!;
  t.is(ref.findings.length, 12, '8 findings and 4 twins');
  const an = {
    ...analysis,
    cells: [{ cohort: 'shell', path: 'lazy', state: 'cold', metric: 'ready', p50Ms: 295.6, n: 30 }],
    differences: [
      ...analysis.differences,
      made('shell', 'warm', 'docker', 'lazy', 196.3, 144.9, 214.5, true),
      made('shell', 'warm', 'docker', 'gvisor-lazy', 74.3, 31.5, 90.5, true),
    ],
    dominance: [{ cohort: 'shell', state: 'cold', metric: 'ready', a: 'docker', b: 'lazy', result: 'b-precedes-a', nA: 30, nB: 30 }],
    bytes: [
      { cohort: 'shell', path: 'docker', state: 'cold', contentBytes: { median: 61130664 } },
      { cohort: 'shell', path: 'lazy', state: 'cold', contentBytes: { median: 4784128 } },
      { cohort: 'numpy', path: 'docker', state: 'cold', contentBytes: { median: 95116494 } },
      { cohort: 'numpy', path: 'lazy', state: 'cold', contentBytes: { median: 75628544 } },
    ],
  } as unknown as AnalysisResult;
  const verdicts = judgeFindings(ref, an);
  // own: dominance held (no size); shell-cold-difference held, ×4.57; shell-warm changed; shell content held ×0.98;
  // numpy-cold gained; numpy-warm changed; numpy content held, ×0.30 → 4 of 7 in direction, 1 of 3 sized in magnitude.
  // twins: shell cold held ×4.36; shell warm changed; numpy cold both undetected (no size); numpy warm held ×1.50 → 3 of 4, 0 of 2.
  t.is(
    sourceTallySentence(verdicts),
    "Of the source's 8 findings, 4 of the 7 judged held in direction and 1 of the 3 with a size to compare also in magnitude (1 is not comparable); " +
      'judged again against the stand-in gvisor-lazy, 3 of 4 held in direction and 0 of 2 also in magnitude.',
  );
});

test('one rule for a path on another runtime: its P50 is not comparable, a difference naming it is judged in direction only, its stand-in twin in full', (t) => {
  const diff = (id: string, cohort: string, state: string, value: number | undefined, low: number, high: number) => ({
    id,
    cohort,
    state,
    kind: 'difference',
    a: 'docker',
    b: 'lazy',
    value,
    low,
    high,
    statement: id,
  });
  const reference = {
    source: 'made up',
    findings: [
      { id: 'shell-cold-p50', cohort: 'shell', state: 'cold', kind: 'p50', a: 'lazy', value: 183.7, statement: 'p50' },
      { id: 'shell-cold-dominance', cohort: 'shell', state: 'cold', kind: 'dominance', a: 'lazy', b: 'docker', statement: 'dominance' },
      diff('shell-cold-difference', 'shell', 'cold', undefined, 389.2, 833.9),
      diff('shell-warm-difference', 'shell', 'warm', undefined, -86.1, -48.2),
      { id: 'shell-cold-content', cohort: 'shell', state: 'cold', kind: 'content-reduction', a: 'docker', b: 'lazy', value: 0.938, statement: 'c' },
      diff('numpy-cold-difference', 'numpy', 'cold', -135.3, -204.1, 176.7),
      diff('numpy-warm-difference', 'numpy', 'warm', -399.7, -408.0, -389.8),
      { id: 'numpy-cold-content', cohort: 'numpy', state: 'cold', kind: 'content-reduction', a: 'docker', b: 'lazy', value: 0.681, statement: 'c' },
    ],
  };
  const ref = sourceReference(reference, { standIns: { lazy: 'gvisor-lazy' }, notComparable: {}, runtimeDiffers: { lazy: 'a VM' } })!;
  t.is(ref.findings.length, 12, '8 findings and 4 twins');
  const an = {
    ...analysis,
    cells: [{ cohort: 'shell', path: 'lazy', state: 'cold', metric: 'ready', p50Ms: 295.6, n: 30 }],
    differences: [
      ...analysis.differences,
      made('shell', 'warm', 'docker', 'lazy', 196.3, 144.9, 214.5, true),
      made('shell', 'warm', 'docker', 'gvisor-lazy', 74.3, 31.5, 90.5, true),
    ],
    dominance: [{ cohort: 'shell', state: 'cold', metric: 'ready', a: 'docker', b: 'lazy', result: 'b-precedes-a', nA: 30, nB: 30 }],
    bytes: [
      { cohort: 'shell', path: 'docker', state: 'cold', contentBytes: { median: 61130664 } },
      { cohort: 'shell', path: 'lazy', state: 'cold', contentBytes: { median: 4784128 } },
      { cohort: 'numpy', path: 'docker', state: 'cold', contentBytes: { median: 95116494 } },
      { cohort: 'numpy', path: 'lazy', state: 'cold', contentBytes: { median: 75628544 } },
    ],
  } as unknown as AnalysisResult;
  const verdicts = judgeFindings(ref, an);
  // own: as above, but shell-cold-difference names lazy: held in direction, its size not compared → 1 of 2 sized in magnitude
  const byId = (id: string) => verdicts.find((v) => v.finding.id === id)!;
  t.is(byId('shell-cold-p50').verdict, 'not comparable');
  t.regex(byId('shell-cold-p50').finding.notComparable!, /^a VM, so their start-up times measure different things$/);
  const own = byId('shell-cold-difference');
  t.deepEqual([own.verdict, own.direction, own.magnitude?.judged], ['agrees', 'held', false]);
  t.is(magnitudeCell(own), 'not comparable: a VM');
  t.is(verdictCell(own), 'agrees in direction');
  const twin = byId('shell-cold-difference (gvisor-lazy)');
  t.true(twin.magnitude!.judged, 'the stand-in twin is judged in size');
  t.regex(
    sourceTallySentence(verdicts) ?? '',
    /^Of the source's 8 findings, 4 of the 7 judged held in direction and 1 of the 2 with a size to compare also in magnitude \(1 is not comparable\)/,
  );
});

test('the band is what a rerun of the same setup gives: 37 of 38 effects two same-key archived runs both detect lie within ×0.80–×1.25 of each other', (t) => {
  // docs/VERDICTS.md quotes this count; the archived runs' differences.csv are the data
  const pairs = [
    ['2026-12-01-7804b9079418', '2026-12-01-7b4874506693'],
    ['2026-12-03-217768e3b495', '2026-12-03-8d2c88c27716'],
  ] as const;
  const runs = 'reports/lazy-startup/runs';
  const sampleKey = (run: string): string =>
    (JSON.parse(readFileSync(join(runs, run, 'run.json'), 'utf8')) as { stages: Record<string, { key: string }> }).stages['sample']!.key;
  const ready = (run: string): Map<string, number> =>
    new Map(
      parseCsvTable(readFileSync(join(runs, run, 'differences.csv'), 'utf8'))
        .rows.filter((r) => r['kind'] === 'median_difference' && r['metric'] === 'ready' && r['detected'] === 'true')
        .map((r) => [`${r['cohort']} ${r['state']} ${r['a']} ${r['b']}`, Number(r['value'])]),
    );
  const ratios: number[] = [];
  for (const [first, second] of pairs) {
    t.is(sampleKey(first), sampleKey(second), `${first} and ${second} share the sample-stage key`);
    const a = ready(first);
    const b = ready(second);
    for (const [k, x] of a) {
      const y = b.get(k);
      if (y !== undefined && Math.sign(x) === Math.sign(y)) ratios.push(y / x);
    }
  }
  const [low, high] = magnitudeBand(1.25);
  const wide = magnitudeBand(1.5);
  t.is(ratios.length, 38);
  t.is(ratios.filter((r) => r >= low && r <= high).length, 37);
  t.is(ratios.filter((r) => r >= wide[0] && r <= wide[1]).length, 37, 'a wider band admits no more of them');
});
