// commit-report: report.md and index.html (one document, two renderings),
// the CSVs (commits.csv: every formal commit), growth plots and REPRODUCE.md
// of the commit-diff experiment; published to reports/<experiment.name>/.
import { notesForRun } from '../harness/config/run-notes.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { projectDirOf } from '../harness/config/project-dir.js';
import type { StageContext, StageDefinition } from '../harness/contract/stage.js';
import { missingInput, findInputFile, type SessionRecord } from '../harness/contract/exchange-files.js';
import { sha256File } from '../harness/digest/sha256.js';
import { SampleJournal } from '../harness/db/sample-journal.js';
import { samplesCsv, samplesCsvFile } from '../harness/publish/samples-csv.js';
import { commitColumns } from '../harness/commit/commit-columns.js';
import { comparisonDifferencesCsv, comparisonStatisticsCsv } from '../harness/publish/comparison-csv.js';
import type { CommitAnalysis } from '../harness/commit/commit-analysis.js';
import { COMPRESSION_UNIT, commitRowsOf } from '../harness/commit/commit-columns.js';
import type { SampleRow } from '../harness/db/sample-row.js';
import { readLooks } from '../harness/comparison/looks-file.js';
import { runRowsOperating } from '../harness/comparison/run-rows-operating.js';
import { operatingSentence } from '../harness/comparison/operating-words.js';
import { commitsCsv, commitsCsvFile, renderCommitCsvs } from '../harness/commit/commit-csvs.js';
import { growthPlot } from '../harness/commit/commit-plots.js';
import { commitReportDocument } from '../harness/commit/commit-report-document.js';
import type { CommitReportInputs } from '../harness/commit/commit-report-inputs.js';
import { commitReproduceDocument } from '../harness/commit/commit-reproduce.js';
import { publish } from '../harness/publish/publish.js';
import type { Plot } from '../harness/publish/plot.js';
import { checkoutCommit } from '../harness/publish/provenance.js';
import { readNoiseFile } from '../harness/analysis/noise-file.js';
import { previousRunFiles } from '../harness/compare/previous-run-files.js';
import { withPreviousRunOf } from '../harness/compare/previous-run-param.js';

function readJson<T>(inputs: Parameters<typeof findInputFile>[0], name: string): T | null {
  const found = findInputFile(inputs, name);
  return found ? (JSON.parse(readFileSync(found.file, 'utf8')) as T) : null;
}

const commitReport: StageDefinition = {
  kind: 'commit-report',
  description:
    'Commit-diff report (report.md and index.html): the summary table, growth plots with both fits (power law, floor + cost), the source against this run, many-file initial commits, commits.csv with every formal commit.',
  reads: ['experiment', 'report', 'analysis.practical', 'design.rounds'],
  readsObservations: true, // the sessions' host (CPUs) and the sampling's duration
  publishDir: (config) => 'reports/' + config.experiment.name,
  // with: { previous_run: FOLDER } — an archived run, for "Against the previous run"; its files join the key.
  inputFiles: (params) => previousRunFiles(params),
  async run(ctx) {
    const analysis = readJson<CommitAnalysis>(ctx.inputs, 'commit-analysis.json');
    if (!analysis) throw missingInput(ctx, 'commit-analysis.json', 'commit-analyze');
    const samples = findInputFile(ctx.inputs, 'samples.duckdb');
    const sampleRows = samples ? await SampleJournal.readRows(samples.file) : [];
    const csvs = new Map<string, string>();
    // Every commit, in the one samples.csv format (with the experiment's declared columns).
    if (samples) csvs.set(samplesCsvFile, samplesCsv(sampleRows, commitColumns));
    const { rows } = commitRowsOf(sampleRows);
    csvs.set(commitsCsvFile, commitsCsv(rows));
    const sessions = readJson<SessionRecord[]>(ctx.inputs, 'sessions.json');
    const inp: CommitReportInputs = {
      experiment: ctx.config.experiment as { name: string; question?: string },
      pipelineFileName: relative(projectDirOf(ctx.pipelineFile), ctx.pipelineFile) || ctx.pipelineFile,
      analysis,
      rows,
      checks: readJson(ctx.inputs, 'change-set-checks.json') ?? [],
      session: {
        ...(readJson<CommitReportInputs['session']>(ctx.inputs, 'session.json') ?? {}),
        cpus: sessions?.[0]?.noise.cpuCount,
        host: sessions?.[0]?.host,
        startedAt: sessions?.map((x) => x.startedAt).sort()[0],
        durationS: readJson<{ durationS: number }>(ctx.inputs, 'duration.json')?.durationS,
      },
      pins: readJson(ctx.inputs, 'pins.json'),
      stages: Object.keys(ctx.inputs)
        .sort()
        .map((id) => ({ id, kind: ctx.inputs[id]!.kind, outputDigest: ctx.inputs[id]!.outputDigest })),
      samplesSha256: samples ? await sha256File(samples.file) : null,
      commit: checkoutCommit(),
      notes: notesForRun(ctx.config.reportOptions.notes, samples?.input.outputDigest ?? null),
      sessionRecords: sessions,
      noise: readNoiseFile(ctx.inputs),
      operating: commitOperating(ctx, analysis, sampleRows),
    };
    const plots: Plot[] = [];
    for (const dimension of ['file_count', 'total_mb']) {
      for (const state of analysis.states) {
        const plot = growthPlot(analysis, rows, state, dimension);
        if (plot) plots.push(plot);
      }
    }
    for (const [name, text] of renderCommitCsvs(analysis)) csvs.set(name, text);
    // The comparison files every experiment publishes alike, for pipeline compare.
    const metric = 'completion';
    csvs.set(
      'differences.csv',
      comparisonDifferencesCsv(
        analysis.ratios.map((r) => ({
          cohort: r.cell,
          state: r.state,
          metric,
          a: 'naive',
          b: 'native',
          unit: 'ms',
          comparison: r.comparison,
          verdict: r.judgement.verdict,
        })),
      ),
    );
    csvs.set(
      'statistics.csv',
      comparisonStatisticsCsv(analysis.cells.map((c) => ({ cohort: c.cell, path: c.method, state: c.state, metric, unit: 'ms', n: c.n, p50: c.p50WallMs }))),
    );
    await publish(ctx, { doc: withPreviousRunOf(ctx, commitReportDocument(inp, plots), csvs, null), plots, csvs, reproduce: commitReproduceDocument(inp) });
  },
};

/** The Method's operating characteristics of the run's design, on its own commits (comparison/run-rows-operating.ts). */
function commitOperating(ctx: StageContext, analysis: CommitAnalysis, sampleRows: readonly SampleRow[]): string | null {
  const looks = readLooks(findInputFile(ctx.inputs, 'adaptive.json'));
  const oc = runRowsOperating(
    sampleRows.filter((r) => r.cohort !== COMPRESSION_UNIT),
    analysis.ratios.map((r) => ({ cohort: r.cell, state: r.state, a: 'naive', b: 'native' })),
    'completion_ms',
    { rounds: ctx.config.design.rounds, looks, maxLaunches: null, margin: ctx.config.rules.practical },
  );
  return oc ? operatingSentence(oc, looks !== null, 'naive/native comparisons') : null;
}

export default commitReport;
