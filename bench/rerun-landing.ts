// Benchmark (not a test): where the two same-key reruns of 2026-12-03 landed
// (issue 28), from the archived runs in reports/lazy-startup/runs/:
//   2026-12-02-2db8d3807dc1   the run published before them (2026-12-02)
//   2026-12-03-217768e3b495   first rerun    } same sample-stage key,
//   2026-12-03-8d2c88c27716   second rerun   } one host, an hour apart
// 2db8… was analysed before rerun intervals existed: `reanalyse` analyses its
// archived samples.csv with this checkout and the committed pipeline.yaml
// (analysis rules, no replicate with its key) and writes its statistics.csv,
// sessions.csv and differences.csv (with rerun_low, rerun_high) to
// reports/reproductions/lazy-startup-rerun-landing/2026-12-02-2db8d3807dc1-reanalysed/.
// `figures` (the default) reads the three runs (2db8… re-analysed, the reruns
// as archived) and prints, per pair, both ways (bench/rerun-landing-figures.ts):
// of the conclusions detected in both, how many hold in magnitude under the
// rule of `pipeline compare` (harness/compare/magnitude-tolerance.ts: the
// baseline's rerun interval, else the candidate's); and how many of one run's
// estimates fall inside the other's interval of the matching kind (the rerun
// interval on the same machine; cross-host where the other run has one).
// test/reproduction-rerun-landing.test.ts holds the README's table to it.
// `adaptive` prints the same table for the run published on 2026-12-04 (sampled until decided) and its two
// fresh-clone reruns (LANDING_RUNS_ADAPTIVE).
// Run: npm run build && node dist/bench/rerun-landing.js [reanalyse|figures|adaptive]
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analysisRules } from '../harness/config/analysis-rules.js';
import { analyzeSamplesInWorkers } from '../harness/analysis/analyze-in-workers.js';
import { readSamples } from '../harness/analysis/read-samples.js';
import { loadPipeline } from '../harness/config/load-pipeline.js';
import { knownStageKinds } from '../harness/engine/stage-registry.js';
import { projectRoot } from '../harness/process/project-root.js';
import { differencesCsv, sessionsCsv, statisticsCsv } from '../harness/report/render-csv.js';
import importSamples from '../stages/import-samples.js';
import type { StageContext } from '../harness/contract/stage.js';
import { noServices } from '../harness/contract/running-services.js';
import { figureTable, LANDING_DIR, LANDING_RUNS_ADAPTIVE, REANALYSED, RUNS } from './rerun-landing-figures.js';

async function reanalyse(): Promise<void> {
  const root = projectRoot();
  const cfg = loadPipeline(join(root, 'pipeline.yaml'), { knownKinds: knownStageKinds() });
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-rerun-landing-'));
  try {
    const out = join(dir, 'import');
    await mkdir(out);
    const ctx: StageContext = {
      id: 'import',
      kind: 'import-samples',
      params: { file: join(root, RUNS, '2026-12-02-2db8d3807dc1', 'samples.csv') },
      config: cfg,
      outputDir: out,
      observationsDir: join(dir, 'observations'),
      inputs: {},
      workDir: join(dir, 'work'),
      dataDir: join(dir, '.data'),
      pipelineDir: root,
      pipelineFile: join(root, 'pipeline.yaml'),
      services: noServices,
      restartServices: async () => noServices,
      key: '0'.repeat(64),
      log: () => {},
      interactive: false,
      signal: new AbortController().signal,
    };
    await importSamples.run(ctx);
    const a = await analyzeSamplesInWorkers(await readSamples(join(out, 'samples.duckdb')), analysisRules(cfg.analysis), null, null, 1);
    const target = join(root, LANDING_DIR, REANALYSED);
    await mkdir(target, { recursive: true });
    await writeFile(join(target, 'statistics.csv'), statisticsCsv(a));
    await writeFile(join(target, 'sessions.csv'), sessionsCsv(a));
    await writeFile(join(target, 'differences.csv'), differencesCsv(a));
    console.log(`wrote ${join(LANDING_DIR, REANALYSED)}: ${a.differences.length} differences, rerun intervals from ${a.rerun.source}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const mode = process.argv[2] ?? 'figures';
if (mode === 'reanalyse') await reanalyse();
else if (mode === 'adaptive') console.log(figureTable(projectRoot(), LANDING_RUNS_ADAPTIVE));
else console.log(figureTable(projectRoot()));
