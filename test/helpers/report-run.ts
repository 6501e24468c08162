// Runs the real analyze and report stages on a samples.duckdb written from
// synthetic rows (two cohorts, three paths, cold and warm; some failed
// launches; one cell whose content bytes vary), in a temporary folder.
import { testDesign } from './test-design.js';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import type { AnalysisResult } from '../../harness/analysis/analysis-result.js';
import type { ReportDocument } from '../../harness/document/document-model.js';
import { launchReportDocument } from '../../harness/report/launch-report-document.js';
import { readLaunchRows } from '../../harness/report/launch-rows.js';
import { reportOptions } from '../../harness/config/report-options.js';
import type { ReportInputs } from '../../harness/report/report-inputs.js';
import { join } from 'node:path';
import { sectionsOf } from '../../harness/config/typed-sections.js';
import type { PipelineConfig } from '../../harness/config/pipeline-config.js';
import type { StageContext, StageInput } from '../../harness/contract/stage.js';
import type { SampleRow } from '../../harness/db/sample-row.js';
import { stageContext, stageInput } from './stage-context.js';
import { syntheticSamples } from '../../harness/analysis/synthetic-samples.js';
import { writeSamplesTable } from '../../harness/analysis/write-samples-table.js';
import analyze from '../../stages/analyze.js';
import report from '../../stages/report.js';

const hooks = { before_cold: [], after_pair: [], before_session: [], after_session: [] };

export function reportConfig(dir: string): PipelineConfig {
  const raw = {
    file: join(dir, 'pipeline.yaml'),
    experiment: { name: 'synthetic', question: 'Does the lazy path start faster?', motivation: 'Short tasks wait for start-up.', unmeasured: ['WAN links'] },
    artifacts: {},
    services: {},
    cohorts: {
      shell: { command: ['sh', '-c', 'echo {marker}'], env: {}, expect: { exit_code: 0, stdout_patterns: [] }, description: 'A shell' },
      numpy: { command: ['python3', '-c', 'print("{marker}")'], env: {}, expect: { exit_code: 0, stdout_patterns: [] }, description: 'A Python script' },
    },
    paths: {
      docker: { launch: ['{command}'], env: {}, hooks, services: [], cold_check: 'full-pull' },
      lazy: { launch: ['{command}'], env: {}, hooks, services: [] },
      'oci-full': { launch: ['{command}'], env: {}, hooks, services: [], cold_check: 'full-pull' },
    },
    design: testDesign(20, 'synthetic'),
    analysis: {
      bootstrap: { resamples: 300 },
      comparisons: [
        { a: 'docker', b: 'lazy' },
        { a: 'oci-full', b: 'lazy' },
        { a: 'docker', b: 'oci-full' },
      ],
    },
    report: {},
    stages: [],
  };
  return { ...raw, ...sectionsOf(raw) } as unknown as PipelineConfig;
}

/** Synthetic launches with long waits for docker and oci-full, a varying lazy cold byte count and a warmup round. */
export function reportSamples(): SampleRow[] {
  const rows = syntheticSamples({
    experiment: 'synthetic',
    cohorts: ['shell', 'numpy'],
    paths: { docker: 2300, lazy: 183, 'oci-full': 8900 },
    states: ['cold', 'warm'],
    rounds: 20,
    seed: 'synthetic',
    failEvery: 47,
  });
  rows.forEach((r, i) => {
    // full-precision doubles, as the launch helper's nanoseconds give: a CSV that rounded them would change the statistics
    if (typeof r['ready_ms'] === 'number') r['ready_ms'] = r['ready_ms'] + (i % 7) / 7e4;
    r['started_at'] = new Date(Date.UTC(2026, 9, 7, 10, 0, 0) + i * 1000).toISOString();
    if (r['path'] === 'lazy' && r['state'] === 'cold' && r['cohort'] === 'numpy') r['content_bytes'] = i % 3 === 0 ? 36_951_980 : 36_886_444;
    if (r['path'] === 'lazy' && r['state'] === 'warm') r['content_bytes'] = 0;
  });
  const warmup = rows
    .filter((r) => r['round'] === 1)
    .map((r) => ({ ...r, phase: 'warmup' as const, launch_id: `W${String(r['launch_id'])}`, started_at: '2026-10-07T09:59:00.000Z' }));
  return [...warmup, ...rows];
}

const context = (
  dir: string,
  id: string,
  outputDir: string,
  inputs: Record<string, StageInput>,
  cfg: PipelineConfig,
  params: Record<string, unknown> = {},
): StageContext => stageContext(dir, id, outputDir, inputs, cfg, params);

/** Runs analyze then report; samples come from `samplesFile` (copied) or from reportSamples(). */
export async function runReport(
  dir: string,
  samplesFile?: string,
  tweak?: (cfg: PipelineConfig) => void,
  reportParams: Record<string, unknown> = {},
): Promise<{ sampleDir: string; analysisDir: string; reportDir: string }> {
  const cfg = reportConfig(dir);
  tweak?.(cfg);
  Object.assign(cfg, sectionsOf(cfg)); // a tweak edits the sections as written: type them again, as loading would
  const sampleDir = join(dir, 'sample-out');
  await mkdir(sampleDir, { recursive: true });
  if (samplesFile) await copyFile(samplesFile, join(sampleDir, 'samples.duckdb'));
  else await writeSamplesTable(join(sampleDir, 'samples.duckdb'), reportSamples());
  await writeFile(join(sampleDir, 'session.json'), JSON.stringify({ seed: 'synthetic', rounds: 20, warmupRounds: 1, preflight: 0, sessions: [] }));
  const sampleInput = stageInput('sample', sampleDir, 'a');
  const analysisDir = join(dir, 'analyze-out');
  await mkdir(analysisDir, { recursive: true });
  await analyze.run(context(dir, 'analyze', analysisDir, { sample: sampleInput }, cfg));
  const reportDir = join(dir, 'report-out');
  await mkdir(reportDir, { recursive: true });
  const analysisInput = stageInput('analyze', analysisDir, 'b');
  await report.run(context(dir, 'report', reportDir, { sample: sampleInput, analyze: analysisInput }, cfg, reportParams));
  return { sampleDir, analysisDir, reportDir };
}

/** The launch report's document model for the synthetic run of runReport (the analysis and launches it wrote). */
export async function reportDocumentOf(
  dir: string,
  tweak?: (cfg: PipelineConfig) => void,
): Promise<{ doc: ReportDocument; inputs: ReportInputs; reportDir: string }> {
  const out = await runReport(dir, undefined, tweak);
  const cfg = reportConfig(dir);
  tweak?.(cfg);
  Object.assign(cfg, sectionsOf(cfg)); // a tweak edits the sections as written: type them again, as loading would
  const inputs: ReportInputs = {
    config: cfg,
    options: reportOptions(cfg.report),
    pipelineFileName: 'pipeline.yaml',
    analysis: JSON.parse(await readFile(join(out.analysisDir, 'analysis.json'), 'utf8')) as AnalysisResult,
    session: null,
    pins: null,
    verify: null,
    stages: [],
    samplesSha256: null,
    launches: await readLaunchRows(join(out.sampleDir, 'samples.duckdb')),
    provenance: { host: null, commit: null, packageSet: null },
    sessions: null,
    preflight: null,
  };
  return { doc: launchReportDocument(inputs, []), inputs, reportDir: out.reportDir };
}
