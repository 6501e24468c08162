// Carryover diagnostics (issue 18): the position and predecessor effects of a
// cell and the "order effect" flag, on made-up imports (fakes that test our own
// logic) and on the published default run's samples.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticSamples } from '../harness/analysis/synthetic-samples.js';
import { analysisRules } from '../harness/config/analysis-rules.js';
import { analyzeSamples } from '../harness/analysis/analyze-samples.js';
import { readSamples } from '../harness/analysis/read-samples.js';
import type { AnalysisResult, CellStatistics } from '../harness/analysis/analysis-result.js';
import { derivedLaunchOrder, launchOrderOf } from './helpers/launch-order.js';
import type { SampleRow } from '../harness/db/sample-row.js';
import { samplesCsv } from '../harness/publish/samples-csv.js';
import { ratioOfMedians } from '../harness/stats/ratio-of-medians.js';
import { randomInt, seededRandom } from '../harness/stats/seeded-random.js';
import importSamples from '../stages/import-samples.js';
import { writeSamplesTable } from '../harness/analysis/write-samples-table.js';
import type { PipelineConfig } from '../harness/config/pipeline-config.js';
import { stageContext } from './helpers/stage-context.js';

const rules = analysisRules({ bootstrap: { resamples: 2000, seed: 'carryover-test' } });

/** Four paths, 40 rounds, log-normal noise of 10%; `tweak` changes Ready of chosen launches before the import. */
function madeUp(tweak: (row: SampleRow, previous: string | null) => void): SampleRow[] {
  const rows = syntheticSamples({
    experiment: 'e',
    cohorts: ['shell'],
    paths: { docker: 4000, lazy: 180, 'oci-full': 3000, gvisor: 300 },
    states: ['cold', 'warm'],
    rounds: 40,
    seed: 'carryover',
  });
  const pathAt = new Map(rows.map((r) => [`${String(r['round'])}/${String(r['order_in_round'])}`, String(r['path'])]));
  for (const r of rows) {
    const order = Number(r['order_in_round']);
    const previous = order > 0 ? pathAt.get(`${String(r['round'])}/${order - 1}`)! : null;
    tweak(r, previous);
  }
  return rows;
}

/** Imports rows through a samples.csv and the import-samples stage, then analyses them. */
async function importAndAnalyze(rows: SampleRow[]): Promise<AnalysisResult> {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-carryover-'));
  try {
    await writeFile(join(dir, 'samples.csv'), samplesCsv(rows));
    const out = join(dir, 'import-out');
    await mkdir(out);
    await importSamples.run(stageContext(dir, 'import', out, {}, {} as PipelineConfig, { file: 'samples.csv' }));
    return analyzeSamples(await readSamples(join(out, 'samples.duckdb')), rules, null);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const cellOf = (a: AnalysisResult, path: string, state: string, metric = 'ready'): CellStatistics =>
  a.cells.find((c) => c.path === path && c.state === state && c.metric === metric)!;

const scale = (r: SampleRow, factor: number): void => {
  if (typeof r['ready_ms'] === 'number') r['ready_ms'] = r['ready_ms'] * factor;
};

test('fake import (our own logic): an injected position effect, cold docker 20% slower per later position, is flagged as an order effect by position', async (t) => {
  const a = await importAndAnalyze(
    madeUp((r) => {
      if (r['path'] === 'docker' && r['state'] === 'cold') scale(r, 1 + 0.2 * Number(r['order_in_round']));
    }),
  );
  const c = cellOf(a, 'docker', 'cold');
  t.true(c.orderEffect);
  t.true(c.position!.flagged);
  t.deepEqual(c.position!.firstPositions, [0, 1]);
  t.deepEqual(c.position!.lastPositions, [2, 3]);
  t.true(c.position!.low > 1.1, `${c.position!.low}`);
  t.true(a.orderEffects.some((f) => f.path === 'docker' && f.state === 'cold' && f.metric === 'ready' && f.by.includes('position')));
  t.false(cellOf(a, 'lazy', 'cold').orderEffect);
});

test('fake import (our own logic): an injected predecessor effect, cold docker 50% slower right after lazy, is flagged as an order effect by predecessor', async (t) => {
  const a = await importAndAnalyze(
    madeUp((r, previous) => {
      if (r['path'] === 'docker' && r['state'] === 'cold' && previous === 'lazy') scale(r, 1.5);
    }),
  );
  const c = cellOf(a, 'docker', 'cold');
  t.true(c.orderEffect);
  t.true(c.predecessor!.flagged);
  t.is(c.predecessor!.slowAfter, 'lazy');
  t.true(c.predecessor!.ratio > 1.3);
  t.true(a.orderEffects.some((f) => f.path === 'docker' && f.state === 'cold' && f.by.includes('predecessor')));
});

test('fake import (our own logic): without an injected effect no cell is flagged', async (t) => {
  const a = await importAndAnalyze(madeUp(() => {}));
  t.deepEqual(
    a.cells.filter((c) => c.orderEffect).map((c) => `${c.path} ${c.state} ${c.metric}`),
    [],
  );
  t.deepEqual(a.orderEffects, []);
  t.true(a.cells.every((c) => c.position !== null && c.predecessor !== null));
});

test('fake samples (our own logic): without an injected effect at most 5% of cells are flagged over 20 made-up runs, the level of the intervals', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-carryover-rate-'));
  try {
    let cells = 0;
    let flagged = 0;
    for (let seed = 0; seed < 20; seed++) {
      const rows = syntheticSamples({
        experiment: 'e',
        cohorts: ['shell'],
        paths: { docker: 4000, lazy: 180, 'oci-full': 3000, gvisor: 300 },
        states: ['cold', 'warm'],
        rounds: 40,
        seed: `rate-${seed}`,
      });
      const file = join(dir, `${seed}.duckdb`);
      await writeSamplesTable(file, rows);
      const a = analyzeSamples(
        await readSamples(file),
        analysisRules({ bootstrap: { resamples: 1000, seed: 'rate' }, comparisons: [{ a: 'docker', b: 'lazy' }] }),
        null,
      );
      cells += a.cells.length;
      flagged += a.cells.filter((c) => c.orderEffect).length;
    }
    t.log(`${flagged} of ${cells} cells flagged`);
    t.is(cells, 320);
    t.true(flagged <= 0.05 * cells);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a launch order is derived from order_in_round when the samples do not record it, and used as recorded when they do', (t) => {
  const slots = [
    { session: 1, cohort: 'c', round: 1, orderInRound: 0, path: 'b' },
    { session: 1, cohort: 'c', round: 1, orderInRound: 1, path: 'a' },
    { session: 2, cohort: 'c', round: 1, orderInRound: 0, path: 'a' },
  ];
  const derived = derivedLaunchOrder(slots);
  t.deepEqual(launchOrderOf({ ...slots[1]!, position: null, previousPath: null }, derived), { position: 1, previousPath: 'b' });
  t.deepEqual(launchOrderOf({ ...slots[2]!, position: null, previousPath: null }, derived), { position: 0, previousPath: null });
  t.deepEqual(launchOrderOf({ ...slots[1]!, position: 3, previousPath: 'x' }, derived), { position: 3, previousPath: 'x' });
});

// The default run published before the settle (3 sessions x 10 rounds of five paths, not settled, randomized order), archived.
const published = (async () => {
  const rows = (await import('../harness/analysis/parse-sample-csv.js')).parseSampleCsv(
    (await import('node:fs')).readFileSync('reports/lazy-startup/runs/2026-12-01-25bf80d30cc6/samples.csv', 'utf8'),
    'reports/lazy-startup/runs/2026-12-01-25bf80d30cc6/samples.csv',
  );
  return importAndAnalyze(rows);
})();

test('the published cold docker cells show the position effect of issue 18 and are flagged; the lazy cells are not', async (t) => {
  const a = await published;
  const at = (cohort: string, path: string, state: string): CellStatistics =>
    a.cells.find((c) => c.cohort === cohort && c.path === path && c.state === state && c.metric === 'ready')!;
  const shell = at('shell', 'docker', 'cold');
  t.deepEqual(
    shell.position!.byPosition.map((p) => Math.round(p.medianMs)),
    [5136, 5812, 7953, 8337, 8064],
  );
  const numpy = at('numpy', 'docker', 'cold');
  t.deepEqual(
    numpy.position!.byPosition.map((p) => Math.round(p.medianMs)),
    [6089, 6125, 9728, 9409, 12301],
  );
  for (const c of [shell, numpy]) {
    t.true(c.position!.flagged, `${c.cohort}: ${c.position!.ratio} [${c.position!.low}, ${c.position!.high}]`);
    t.true(c.position!.ratio > 1.4);
  }
  t.false(at('shell', 'lazy', 'cold').orderEffect);
  t.false(at('numpy', 'gvisor-lazy', 'cold').orderEffect);
  t.is(at('numpy', 'gvisor-lazy', 'cold').carryover, 'within-size');
  t.is(shell.carryover, 'order-effect');
  // gvisor-full cold: 2844 ms after docker, 5947 ms after lazy, but too few launches per predecessor for an interval that excludes 1
  t.is(at('shell', 'gvisor-full', 'cold').carryover, 'unresolved');
  // numpy oci-full cold: 3380 ms after docker, 6980 ms after lazy (issue 18)
  const oci = at('numpy', 'oci-full', 'cold').predecessor!;
  t.is(Math.round(oci.byPredecessor.find((g) => g.previous === 'docker')!.medianMs), 3380);
  t.is(Math.round(oci.byPredecessor.find((g) => g.previous === 'lazy')!.medianMs), 6980);
  t.true(oci.flagged);
});

const PYTHON = '/usr/bin/python3';

test('position medians of the published cold docker cells equal NumPy medians of the same launches', async (t) => {
  const a = await published;
  const script = `
import csv, json, sys, numpy as np
rows = [r for r in csv.DictReader(open('reports/lazy-startup/runs/2026-12-01-25bf80d30cc6/samples.csv')) if r['phase'] == 'formal']
out = {}
for cohort in ['shell', 'numpy']:
    cell = [r for r in rows if r['cohort'] == cohort and r['path'] == 'docker' and r['state'] == 'cold' and r['ok'] == 'true']
    out[cohort] = {
        'first': float(np.median([float(r['ready_ms']) for r in cell if int(r['order_in_round']) in (0, 1)])),
        'last': float(np.median([float(r['ready_ms']) for r in cell if int(r['order_in_round']) in (3, 4)])),
    }
print(json.dumps(out))
`;
  const ref = JSON.parse(execFileSync(PYTHON, ['-c', script]).toString()) as Record<string, { first: number; last: number }>;
  for (const cohort of ['shell', 'numpy']) {
    const p = a.cells.find((c) => c.cohort === cohort && c.path === 'docker' && c.state === 'cold' && c.metric === 'ready')!.position!;
    t.true(Math.abs(p.firstMedianMs - ref[cohort]!.first) < 1e-9, `${cohort} first ${p.firstMedianMs} vs ${ref[cohort]!.first}`);
    t.true(Math.abs(p.lastMedianMs - ref[cohort]!.last) < 1e-9, `${cohort} last ${p.lastMedianMs} vs ${ref[cohort]!.last}`);
  }
});

test('the ratio-of-medians interval agrees with NumPy given the same draws', (t) => {
  const random = seededRandom('values');
  // our resamples index the groups sorted ascending; NumPy gets them sorted too
  const num = Array.from({ length: 13 }, () => 100 * Math.exp(random())).sort((x, y) => x - y);
  const den = Array.from({ length: 9 }, () => 80 * Math.exp(random())).sort((x, y) => x - y);
  const resamples = 400;
  const draws = seededRandom('numpy-ratio');
  const idx = Array.from({ length: resamples }, () => ({
    num: num.map(() => randomInt(draws, num.length)),
    den: den.map(() => randomInt(draws, den.length)),
  }));
  const script = `
import json, sys, numpy as np
d = json.load(sys.stdin)
num, den = np.array(d['num']), np.array(d['den'])
r = [np.median(num[i['num']]) / np.median(den[i['den']]) for i in d['idx']]
print(json.dumps([float(np.median(num) / np.median(den)), float(np.percentile(r, 2.5)), float(np.percentile(r, 97.5))]))
`;
  const [ratio, low, high] = JSON.parse(execFileSync(PYTHON, ['-c', script], { input: JSON.stringify({ num, den, idx }) }).toString()) as number[];
  const ours = ratioOfMedians([...num].reverse(), den, { resamples, confidence: 0.95, seed: 'numpy-ratio' })!;
  t.true(Math.abs(ours.ratio - ratio!) < 1e-12, `${ours.ratio} vs ${ratio}`);
  t.true(Math.abs(ours.low - low!) < 1e-12, `${ours.low} vs ${low}`);
  t.true(Math.abs(ours.high - high!) < 1e-12, `${ours.high} vs ${high}`);
});
