// effects-report: renders report.md in the source's shape (gVisor,
// Firecracker, Both; tried and dropped; not runnable here) from effects.json,
// and copies the raw samples and the host requirements next to it. Published
// to reports/<experiment.name>/.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageContext, StageDefinition } from '../harness/contract/stage.js';
import { checkoutCommit } from '../harness/report/read-provenance.js';
import { findInputFile, type SamplingHost } from '../harness/contract/exchange-files.js';
import { reportOptions } from '../harness/report/report-options.js';
import { UserError } from '../harness/errors.js';
import { SampleJournal } from '../harness/db/sample-journal.js';
import { samplesCsv, samplesCsvFile } from '../harness/report/samples-csv.js';
import { renderEffectReport, type MeasuredRow, type ReportedRow } from '../harness/sandbox/effect-table-md.js';
import { comparisonDifferencesCsv, comparisonStatisticsCsv } from '../harness/report/comparison-csv.js';
import { effectReportEnd } from '../harness/sandbox/effect-report-end.js';

/** Commit, host and the digests of the stages this report was rendered from. */
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

const effectsReport: StageDefinition = {
  kind: 'effects-report',
  description: 'The effect table report (gVisor, Firecracker, Both; tried and dropped; not runnable here).',
  reads: ['effects', 'experiment', 'report', 'design.sessions', 'design.rounds', 'design.seed', 'design.order'],
  publishDir: (config) => 'reports/' + config.experiment.name,
  readsObservations: true, // the sampling host's facts
  async run(ctx) {
    const design = ctx.config.design;
    const effects = findInputFile(ctx.inputs, 'effects.json');
    if (!effects)
      throw new UserError(`stage ${ctx.id} needs the effects-analyze stage`, { key: `stages.${ctx.id}.needs` }, 'add the effects-analyze stage to needs');
    const rows = JSON.parse(readFileSync(effects.file, 'utf8')) as ReportedRow[];
    const exp = ctx.config.experiment;
    const md = renderEffectReport({
      title: exp.name,
      intro: [exp.question, exp.motivation ?? '', exp.unmeasured?.length ? `Not measured here:\n\n${exp.unmeasured.map((u) => `- ${u}`).join('\n')}` : '']
        .filter(Boolean)
        .join('\n\n'),
      sessions: design.sessions,
      rounds: design.rounds,
      seed: design.seed,
      order: design.order,
      rows,
    });
    const notes = reportOptions(ctx.config.report).notes;
    const hostFile = findInputFile(ctx.inputs, 'host.json');
    const host = hostFile ? (JSON.parse(readFileSync(hostFile.file, 'utf8')) as SamplingHost) : null;
    writeFileSync(join(ctx.outputDir, 'report.md'), effectReportEnd(md, notes, provenanceLines(ctx.inputs, host)));
    writeFileSync(join(ctx.outputDir, 'effects.json'), readFileSync(effects.file));
    // The comparison files every experiment publishes alike, for pipeline compare (after / before per row).
    const measured = rows.filter((r): r is MeasuredRow => r.state === 'measured');
    const metricOf = (r: MeasuredRow): string => r.row.metric.replace(/^printed:/, '');
    writeFileSync(
      join(ctx.outputDir, 'differences.csv'),
      comparisonDifferencesCsv(
        measured.map((r) => ({
          cohort: r.row.id,
          state: 'none',
          metric: metricOf(r),
          a: 'after',
          b: 'before',
          unit: r.row.unit,
          comparison: r.cell.comparison,
        })),
      ),
    );
    writeFileSync(
      join(ctx.outputDir, 'statistics.csv'),
      comparisonStatisticsCsv(
        measured.flatMap((r) => [
          { cohort: r.row.id, path: 'before', state: 'none', metric: metricOf(r), unit: r.row.unit, n: r.cell.nBefore, p50: r.cell.p50Before },
          { cohort: r.row.id, path: 'after', state: 'none', metric: metricOf(r), unit: r.row.unit, n: r.cell.nAfter, p50: r.cell.p50After },
        ]),
      ),
    );
    for (const name of ['requirements.json', 'rows.json']) {
      const f = findInputFile(ctx.inputs, name);
      if (f) copyFileSync(f.file, join(ctx.outputDir, name));
    }
    // The one samples.csv format of every experiment: import-samples reads it back.
    const samples = findInputFile(ctx.inputs, 'samples.duckdb');
    if (samples) writeFileSync(join(ctx.outputDir, samplesCsvFile), samplesCsv(await SampleJournal.readRows(samples.file)));
  },
};

export default effectsReport;
