// design.adaptive stops by the analysis's margin and comparisons (issue 42:
// one copy of each), so a sample stage hashes them only when it samples until
// decided: our own key rule, on made-up config slices.
import test from 'ava';
import { adaptiveKeySlice } from '../harness/experiment/adaptive-reads.js';
import { adaptiveDesign } from '../harness/experiment/adaptive-plan.js';
import sample from '../stages/sample.js';
import commitSample from '../stages/commit-sample.js';

const comparisons = [
  { a: 'docker', b: 'lazy' },
  { factor: 'unit', a: 'shell', b: 'numpy' },
];
const slice = (adaptive: unknown, practical = { min_ratio_change: 0.05, min_ms: 10 }): Record<string, unknown> => ({
  'experiment.name': 'made-up',
  design: { rounds: 2, ...(adaptive === undefined ? {} : { adaptive }) },
  'analysis.practical': practical,
  'analysis.comparisons': comparisons,
});

test('adaptive off: the analysis keys are not in a sample stage key, so a new margin reruns only analyze and report', (t) => {
  t.deepEqual(Object.keys(adaptiveKeySlice(slice(undefined))).sort(), ['design', 'experiment.name']);
  t.deepEqual(adaptiveKeySlice(slice(false)), adaptiveKeySlice(slice(false, { min_ratio_change: 0.1, min_ms: 0 })));
  for (const stage of [sample, commitSample]) {
    const key = (p: { min_ratio_change: number; min_ms: number }): unknown => stage.keyConfig!(slice(undefined, p), '.');
    t.deepEqual(key({ min_ratio_change: 0.05, min_ms: 10 }), key({ min_ratio_change: 0.1, min_ms: 0 }), stage.kind);
  }
});

test('adaptive on: the margin and the comparisons of arms are in the key (a factor comparison changes no sampling)', (t) => {
  const on = adaptiveKeySlice(slice({ min_sessions: 3 }));
  t.deepEqual(on['analysis.comparisons'], [{ a: 'docker', b: 'lazy' }]);
  t.deepEqual(on['analysis.practical'], { min_ratio_change: 0.05, min_ms: 10 });
  for (const stage of [sample, commitSample]) {
    const key = (p: { min_ratio_change: number; min_ms: number }): unknown => stage.keyConfig!(slice({ min_sessions: 3 }, p), '.');
    t.notDeepEqual(key({ min_ratio_change: 0.05, min_ms: 10 }), key({ min_ratio_change: 0.1, min_ms: 0 }), stage.kind);
  }
});

test('the design the sampling stops by takes its margin and pairs from the analysis rules', (t) => {
  const d = adaptiveDesign(
    { min_sessions: 3 },
    {
      practical: { relative: 0.1, absoluteMs: 25 },
      comparisons: [
        { a: 'x', b: 'y' },
        { a: 'c', b: 'w', factor: 'condition' },
      ],
    },
  )!;
  t.is(d.marginRelative, 0.1);
  t.is(d.minMs, 25);
  t.deepEqual(d.comparisons, [{ a: 'x', b: 'y' }]);
  t.is(adaptiveDesign({ min_sessions: 3 })!.minMs, 10, "without rules: analysis.practical's defaults, 5% or 10 ms");
  t.is(adaptiveDesign({ min_sessions: 3 }, { practical: { relative: 0.05, absoluteMs: 0 }, comparisons: [] })!.comparisons, null, 'none listed: every pair');
});
