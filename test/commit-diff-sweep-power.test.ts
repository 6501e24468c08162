// The file-count sweep of pipelines/commit-diff.yaml can tell a linear from a
// quadratic naive incremental commit (issue 33): made-up observations at the
// sweep's sizes, built from the published run's own floor values (the naive
// incremental commits of 100 files, with their noise) plus a cost that
// reaches the published median at its largest file count either linearly or
// quadratically.
// The floor + c·n^k fit must then place three or more sizes above the floor
// and its interval on k must name the shape the made-up data was built with.
import test from 'ava';
import { join } from 'node:path';
import { loadPipeline } from '../harness/config/load-pipeline.js';
import { knownStageKinds } from '../harness/engine/stage-registry.js';
import { floorPowerFit, growthShape } from '../harness/stats/floor-power-fit.js';
import { median } from '../harness/stats/quantile.js';
import { shapeSentence } from '../harness/commit/commit-phrases.js';
import type { Growth } from '../harness/commit/commit-analysis.js';
import { projectRoot } from '../harness/process/project-root.js';
import { publishedCsv } from './helpers/published-report.js';

const config = loadPipeline(join(projectRoot(), 'pipelines', 'commit-diff.yaml'), { knownKinds: knownStageKinds() });
const sweep = (config.design.matrix as Record<string, number[]>[]).find((m) => m['file_count']!.length > 1)!;
const sizes = sweep['file_count']!;
const published = publishedCsv('commit-diff', 'samples.csv').filter((r) => r['phase'] === 'formal' && r['path'] === 'naive' && r['state'] === 'incremental');
const at = (files: number): number[] =>
  published
    .filter((r) => Number(r['file_count']) === files && Number(r['total_mb']) === 100 && Number(r['change_bytes']) === 1024)
    .map((r) => Number(r['completion_ms']));
const floorValues = at(100);
// the largest file count the published run swept, at 100 MB and a 1 KB change
const largest = Math.max(...published.filter((r) => Number(r['total_mb']) === 100 && Number(r['change_bytes']) === 1024).map((r) => Number(r['file_count'])));
const top = median(at(largest)) - median(floorValues);

function madeUp(k: number): Map<number, number[]> {
  return new Map([...new Set([...sizes, 1000, 100000])].map((n) => [n, floorValues.map((y) => y + top * ((n - 100) / (largest - 100)) ** k)]));
}
const atSweep = (m: Map<number, number[]>): Map<number, number[]> => new Map([...m].filter(([n]) => sizes.includes(n)));

test('the sweep holds at least three file counts between 10k and 300k', (t) => {
  t.true(sizes.filter((n) => n > 10000 && n < 300000).length >= 3, `file counts ${sizes.join(', ')}`);
});

for (const [k, shape] of [
  [1, 'linear'],
  [2, 'quadratic'],
] as const) {
  test(`made-up ${shape} growth at the sweep's sizes is identified and named ${shape} by the interval on k`, (t) => {
    const f = floorPowerFit(atSweep(madeUp(k)), { resamples: 1000, confidence: 0.95, seed: 'sweep-power' })!;
    t.truthy(f);
    t.true(f.sizesAboveFloor >= 3, `${f.sizesAboveFloor} of ${f.sizes} sizes above the floor`);
    t.is(growthShape(f), shape, `k ${f.exponent} [${f.exponentLow}, ${f.exponentHigh}]`);
    const sentence = shapeSentence({ dimension: 'file_count', method: 'naive', state: 'incremental', floorPower: f } as Growth)!;
    t.regex(sentence, shape === 'linear' ? /grows linearly above its floor: k = .* holds 1 and excludes 2/ : /grows quadratically/);
  });
}

test("made-up linear growth at the published run's four file counts is not identified (why the sweep grew)", (t) => {
  const old = new Map([...madeUp(1)].filter(([n]) => [100, 1000, 10000, 100000].includes(n)));
  t.is(old.size, 4);
  const f = floorPowerFit(old, { resamples: 1000, confidence: 0.95, seed: 'sweep-power' })!;
  t.true(f.sizesAboveFloor < 3 || growthShape(f) !== 'linear', `${f.sizesAboveFloor} above the floor, k [${f.exponentLow}, ${f.exponentHigh}]`);
});
