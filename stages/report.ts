// report: renders report.md, index.html, the CSV files (samples.csv with
// every launch), REPRODUCE.md and SVG plots from analysis.json and whatever
// upstream files exist (pins, session, verify).
// The engine copies the frozen outputs to reports/<experiment.name>/.
// What run() needs is imported inside it, so a command that only plans (a
// no-op rerun, status) does not load the renderer.
import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { projectDirOf } from '../harness/config/project-dir.js';
import type { StageDefinition } from '../harness/contract/stage.js';
import { sha256File } from '../harness/digest/sha256.js';
import type { AnalysisResult } from '../harness/analysis/analysis-result.js';
import { findInputFile } from '../harness/contract/exchange-files.js';
import type { SessionRecord } from '../harness/contract/exchange-files.js';
import type { Requirement } from '../harness/contract/requirement.js';
import { projectRoot } from '../harness/process/project-root.js';
import { previousRunFiles } from '../harness/compare/previous-run-files.js';
import { notesForRun } from '../harness/config/run-notes.js';
import type { Pins, ReportInputs, Session, Verify } from '../harness/report/report-inputs.js';

async function readJson<T>(inputs: Parameters<typeof findInputFile>[0], name: string): Promise<T | null> {
  const found = findInputFile(inputs, name);
  return found ? (JSON.parse(await readFile(found.file, 'utf8')) as T) : null;
}

/** The coverage warning of this design (sessions x rounds) from the coverage table the stage was given; null without a table or below no threshold. */
async function designCoverageWarning(table: unknown, pipelineDir: string, design: { sessions: number; rounds: number }): Promise<string | null> {
  if (typeof table !== 'string' || !table) return null;
  const [{ coverageRowsFromCsv }, { coverageWarning }] = await Promise.all([
    import('../harness/report/coverage-rows.js'),
    import('../harness/stats/coverage-warning.js'),
  ]);
  const rows = coverageRowsFromCsv(await readFile(resolve(pipelineDir, table), 'utf8'));
  const w = coverageWarning(rows, design.sessions, design.rounds);
  return w ? `${w} (${table})` : null;
}

const report: StageDefinition = {
  kind: 'report',
  description: 'report.md, index.html, statistics/differences/provenance/samples CSVs, REPRODUCE.md and SVG plots',
  reads: ['report', 'experiment', 'design', 'cohorts', 'paths', 'artifacts', 'services'],
  readsObservations: true, // the sessions' hosts, times and load (sample observations)
  // with: { coverage_table: FILE } — the coverage simulation's table (bench/coverage-table.ts); its digest joins the key.
  // with: { previous_run: FOLDER } — an archived run of the experiment, for "Against the previous run"; its files join the key.
  inputFiles: (params) => [
    ...(typeof params['coverage_table'] === 'string' && params['coverage_table'] ? [params['coverage_table']] : []),
    ...previousRunFiles(params),
  ],
  publishDir: (config) => 'reports/' + config.experiment.name,
  async run(ctx) {
    const [
      { readLaunchRows },
      { readProvenance },
      { launchPublication },
      { publish },
      { usedParts },
      { readAdaptiveRecord },
      { withPreviousRunOf },
      { runCanaryOf },
    ] = await Promise.all([
      import('../harness/report/launch-rows.js'),
      import('../harness/publish/provenance.js'),
      import('../harness/report/render-report.js'),
      import('../harness/publish/publish.js'),
      import('../harness/publish/used-tools.js'),
      import('../harness/report/stopping-section.js'),
      import('../harness/compare/previous-run-param.js'),
      import('../harness/history/published-run.js'),
    ]);
    const samples = findInputFile(ctx.inputs, 'samples.duckdb');
    const pins = findInputFile(ctx.inputs, 'pins.json');
    const images = Object.values((ctx.config.artifacts?.['images'] ?? {}) as Record<string, { kind?: unknown }>);
    // The Debian package set is provenance only of images built from it (mmdebstrap), never of images brought as they are.
    const built = images.some((i) => i?.kind === 'mmdebstrap');
    const mirror = typeof ctx.config.artifacts?.['mirror'] === 'string' && pins && built ? (ctx.config.artifacts['mirror'] as string) : null;
    // What the sample stage declared and checked (requirements.json), when it wrote it.
    const requirements = await readJson<Requirement[]>(ctx.inputs, 'requirements.json');
    const used = usedParts(ctx.config, requirements ?? [], join(projectRoot(), 'harness'));
    // a run that sampled until decided ran the sessions its rule asked for, not design.sessions
    const adaptive = readAdaptiveRecord(ctx.inputs);
    const design = { sessions: adaptive?.sessionsRun ?? ctx.config.design.sessions, rounds: ctx.config.design.rounds };
    const inputs: ReportInputs = {
      config: ctx.config,
      options: ctx.config.reportOptions,
      pipelineFileName: relative(projectDirOf(ctx.pipelineFile), ctx.pipelineFile) || ctx.pipelineFile,
      analysis: await readJson<AnalysisResult>(ctx.inputs, 'analysis.json'),
      session: await readJson<Session>(ctx.inputs, 'session.json'),
      pins: await readJson<Pins>(ctx.inputs, 'pins.json'),
      verify: await readJson<Verify>(ctx.inputs, 'verify.json'),
      stages: Object.keys(ctx.inputs)
        .sort()
        .map((id) => ({ id, kind: ctx.inputs[id]!.kind, outputDigest: ctx.inputs[id]!.outputDigest })),
      samplesSha256: samples ? await sha256File(samples.file) : null,
      notes: notesForRun(ctx.config.reportOptions.notes, samples?.input.outputDigest ?? null),
      launches: samples ? await readLaunchRows(samples.file) : [],
      preflight: await readJson<{ launches: number; failures: number }>(ctx.inputs, 'warmup.json').then((w) =>
        w ? { launches: w.launches, failures: w.failures } : null,
      ),
      coverageWarning: await designCoverageWarning(ctx.params['coverage_table'], ctx.pipelineDir, design),
      sessions: await readJson<SessionRecord[]>(ctx.inputs, 'sessions.json'),
      adaptive,
      tools: used.tools,
      kernelFeatures: used.kernel,
      requirements,
      provenance: readProvenance({
        dataDir: ctx.dataDir,
        sampleOutputDir: samples?.input.outputDir ?? null,
        pinOutputDir: pins?.input.outputDir ?? null,
        mirror,
      }),
    };
    const publication = launchPublication(inputs);
    const canary = runCanaryOf(inputs.analysis?.canary ?? null);
    await publish(ctx, { ...publication, doc: withPreviousRunOf(ctx, publication.doc, publication.csvs, canary) });
  },
};

export default report;
