// effects-report: the sandbox-effects report as a document
// (harness/sandbox/effect-report-document.ts), rendered to report.md and to
// index.html, with the paired before/after dot plot and the ratio forest
// plot as SVG, the comparison CSVs every experiment publishes
// (differences.csv, statistics.csv: the summary's numbers), the raw samples
// and the host requirements. Reads effects.json from effects-analyze; the
// per-row relations, controls and missing rows come from report.rows and
// report.missing, the floor from analysis.practical. Published to
// reports/<experiment.name>/.
import { notesForRun } from '../harness/config/run-notes.js';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { projectDirOf } from '../harness/config/project-dir.js';
import type { StageContext, StageDefinition } from '../harness/contract/stage.js';
import { checkoutCommit } from '../harness/publish/provenance.js';
import { needInputFile, findInputFile, type SamplingHost, type SessionRecord } from '../harness/contract/exchange-files.js';
import { SampleJournal } from '../harness/db/sample-journal.js';
import { samplesCsv, samplesCsvFile } from '../harness/publish/samples-csv.js';
import type { MeasuredRow, ReportedRow } from '../harness/sandbox/effect-table-md.js';
import { effectCsvs } from '../harness/sandbox/effect-csvs.js';
import { effectReportDocument } from '../harness/sandbox/effect-report-document.js';
import { effectReportNotes, noteOf } from '../harness/sandbox/effect-row-notes.js';
import { launchSpanSentence } from '../harness/sandbox/effect-phrases.js';
import { practicalFloor } from '../harness/sandbox/practical-floor.js';
import { readNoiseFile } from '../harness/analysis/noise-file.js';
import { pairedDotPlot, ratioForestPlot } from '../harness/sandbox/effect-plots.js';
import type { Requirement } from '../harness/contract/requirement.js';
import { publish } from '../harness/publish/publish.js';
import { previousRunFiles } from '../harness/compare/previous-run-files.js';
import { withPreviousRunOf } from '../harness/compare/previous-run-param.js';
import { needLine, reproduceDocument } from '../harness/publish/reproduce-document.js';
import type { Plot } from '../harness/publish/plot.js';
import type { SampleRow } from '../harness/db/sample-row.js';
import { readLooks } from '../harness/comparison/looks-file.js';
import { runRowsOperating } from '../harness/comparison/run-rows-operating.js';
import { operatingSentence } from '../harness/comparison/operating-words.js';

/** Commit, the sampling host and the digests of the stages this report was rendered from. */
function provenanceLines(inputs: StageContext['inputs'], host: SamplingHost | null): string[] {
  const commit = checkoutCommit();
  return [
    commit ? `benchgraph commit ${commit.sha}${commit.dirty ? ' with uncommitted changes (dirty)' : ' (clean)'}` : 'benchgraph commit: not a git checkout',
    host
      ? `sampled on ${host.host}: ${host.cpus} vCPUs, ${host.memoryGiB.toFixed(1)} GiB RAM, kernel ${host.kernel}; runsc: ${host.runsc ?? 'not found'}`
      : 'sampling host: not recorded',
    ...Object.keys(inputs)
      .sort()
      .map((id) => `stage \`${id}\` (${inputs[id]!.kind}): ${inputs[id]!.outputDigest}`),
  ];
}

/** The sampling sessions' records (the sample stage's sessions.json observation), or null. */
function sessionsOf(inputs: StageContext['inputs']): SessionRecord[] | null {
  const f = findInputFile(inputs, 'sessions.json');
  return f ? (JSON.parse(readFileSync(f.file, 'utf8')) as SessionRecord[]) : null;
}

/** The scope line: report.scope, else the sampling host and the design. */
function scopeOf(given: string | null, host: SamplingHost | null, sessions: number, rounds: number): string {
  const design = `${sessions} sessions × ${rounds} paired rounds per measured row`;
  if (given) return `${given.replace(/\.$/, '')}; ${design}`;
  const where = host ? `one host (${host.cpus} vCPUs, kernel ${host.kernel}), ${host.runsc ?? 'no runsc'}` : 'one host';
  return `${where}; ${design}`;
}

const effectsReport: StageDefinition = {
  kind: 'effects-report',
  description: 'The effect report: tally, summary of the measured rows, not-runnable reasons, missing rows, paired and forest plots (report.md, index.html).',
  reads: ['effects', 'experiment', 'report', 'analysis.practical', 'analysis.clusters', 'design.sessions', 'design.rounds', 'design.seed', 'design.order'],
  publishDir: (config) => 'reports/' + config.experiment.name,
  // with: { previous_run: FOLDER } — an archived run, for "Against the previous run"; its files join the key.
  inputFiles: (params) => previousRunFiles(params),
  readsObservations: true, // the sampling host's facts
  async run(ctx) {
    const design = ctx.config.design;
    const effects = needInputFile(ctx, 'effects.json', 'effects-analyze');
    const rows = JSON.parse(readFileSync(effects.file, 'utf8')) as ReportedRow[];
    const exp = ctx.config.experiment;
    const options = ctx.config.reportOptions;
    const notes = effectReportNotes(ctx.config.report);
    const floor = practicalFloor(ctx.config.rules.practical);
    const hostFile = findInputFile(ctx.inputs, 'host.json');
    const host = hostFile ? (JSON.parse(readFileSync(hostFile.file, 'utf8')) as SamplingHost) : null;
    const reqFile = findInputFile(ctx.inputs, 'requirements.json');
    const requirements = reqFile ? (JSON.parse(readFileSync(reqFile.file, 'utf8')) as Requirement[]) : [];
    const samplesFile = findInputFile(ctx.inputs, 'samples.duckdb');
    const samples = samplesFile ? await SampleJournal.readRows(samplesFile.file) : [];
    const measured = rows.filter((r): r is MeasuredRow => r.state === 'measured');
    const plots = options.plots
      ? [pairedDotPlot(measured, samples), ratioForestPlot(measured, (id) => noteOf(notes, id), floor)].filter((p): p is Plot => p !== null)
      : [];
    const doc = effectReportDocument({
      title: options.title ?? exp.name,
      question: exp.question,
      scope: scopeOf(options.scope, host, design.sessions, design.rounds),
      design: { sessions: design.sessions, rounds: design.rounds, seed: design.seed, order: design.order },
      rows,
      notes,
      requirements,
      floor,
      clusters: ctx.config.rules.clusters,
      unmeasured: exp.unmeasured ?? [],
      reportNotes: notesForRun(options.notes, samplesFile?.input.outputDigest ?? null),
      launchSpan: launchSpanSentence(samples.map((s) => (typeof s['started_at'] === 'string' ? s['started_at'] : null))),
      provenance: provenanceLines(ctx.inputs, host),
      sessions: sessionsOf(ctx.inputs),
      noise: readNoiseFile(ctx.inputs),
      operating: effectsOperating(ctx, measured, samples),
      plots,
    });
    // The comparison files every experiment publishes alike, for pipeline compare (after / before per row).
    const csvs = effectCsvs(measured);
    const files = new Map<string, Buffer>([['effects.json', readFileSync(effects.file)]]);
    for (const name of ['requirements.json', 'rows.json']) {
      const f = findInputFile(ctx.inputs, name);
      if (f) files.set(name, readFileSync(f.file));
    }
    const commit = checkoutCommit();
    const file = relative(projectDirOf(ctx.pipelineFile), ctx.pipelineFile) || ctx.pipelineFile;
    const reproduce = reproduceDocument({
      name: exp.name,
      pipelineFileName: file,
      // What the rows declare they need (requirements.json), and whether this host had it.
      needs: [
        'Debian 12 (bookworm) on x86_64; `./setup.sh` installs the Debian packages.',
        ...requirements.map((r) => `${needLine(r)}: ${r.met ? 'met here' : `absent here (${r.detail}), so the rows that need it were not runnable`}.`),
      ],
      root: requirements.some((r) => r.id === 'root'),
      commandNotes: [
        `\`./bin/pipeline.js run\` publishes the new report to \`reports/${exp.name}/\`; a row whose requirement is absent on your host is reported as not runnable, never measured.`,
      ],
      howLong: [],
      reproduced: `Compare your new \`reports/${exp.name}/\` with this folder using \`./bin/pipeline.js compare\`: each measured row's direction (after against before) should hold.`,
      stages: Object.keys(ctx.inputs)
        .sort()
        .map((id) => ({ id, kind: ctx.inputs[id]!.kind, outputDigest: ctx.inputs[id]!.outputDigest })),
      samplesSha256: null,
      commit,
      versions: host ? [`kernel ${host.kernel}`, `runsc: ${host.runsc ?? 'not found'}`] : null,
    });
    // The one samples.csv format of every experiment: import-samples reads it back.
    const published = {
      'differences.csv': csvs.differences,
      'statistics.csv': csvs.statistics,
      ...(samplesFile ? { [samplesCsvFile]: samplesCsv(samples) } : {}),
    };
    await publish(ctx, { doc: withPreviousRunOf(ctx, doc, published, null), plots, csvs: published, reproduce, files });
  },
};

/** The Method's operating characteristics of the run's design, on its own rows in ms (comparison/run-rows-operating.ts). */
function effectsOperating(ctx: StageContext, measured: readonly MeasuredRow[], samples: readonly SampleRow[]): string | null {
  const looks = readLooks(findInputFile(ctx.inputs, 'adaptive.json'));
  const metricOf = new Map(measured.map((m) => [m.row.id, m.row.metric === 'ready' || m.row.metric === 'completion' ? `${m.row.metric}_ms` : null]));
  const oc = runRowsOperating(
    samples,
    measured.map((m) => ({ cohort: m.row.id, state: 'none', a: 'after', b: 'before' })),
    (c) => metricOf.get(c.cohort) ?? null,
    { rounds: ctx.config.design.rounds, looks, maxLaunches: null, margin: ctx.config.rules.practical },
  );
  return oc ? operatingSentence(oc, looks !== null, 'rows timed in ms') : null;
}

export default effectsReport;
