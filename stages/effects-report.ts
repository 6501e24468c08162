// effects-report: renders report.md in the source's shape (gVisor,
// Firecracker, Both; tried and dropped; not runnable here) from effects.json,
// and copies the raw samples and the host requirements next to it. Published
// to reports/<experiment.name>/.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, release, totalmem } from 'node:os';
import type { StageContext, StageDefinition } from '../harness/contract/stage.js';
import { checkoutCommit } from '../harness/report/read-provenance.js';
import { runUntimed } from '../harness/process/untimed-command.js';
import { findInputFile } from '../harness/contract/exchange-files.js';
import { reportOptions } from '../harness/report/report-options.js';
import { UserError } from '../harness/errors.js';
import { SampleJournal } from '../harness/db/sample-journal.js';
import { samplesCsv, samplesCsvFile } from '../harness/report/samples-csv.js';
import { renderEffectReport, type ReportedRow } from '../harness/sandbox/effect-table-md.js';
import { effectReportEnd } from '../harness/sandbox/effect-report-end.js';

/** Commit, host and the digests of the stages this report was rendered from. */
async function provenanceLines(inputs: StageContext['inputs']): Promise<string[]> {
  const commit = checkoutCommit();
  const runsc = await runUntimed('runsc', ['--version']).catch(() => null);
  return [
    commit ? `benchgraph commit ${commit.sha}${commit.dirty ? ' with uncommitted changes (dirty)' : ' (clean)'}` : 'benchgraph commit: not a git checkout',
    `host: ${cpus().length} vCPUs, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, kernel ${release()}; runsc: ${runsc ? runsc.split('\n')[0] : 'not found'}`,
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
    writeFileSync(join(ctx.outputDir, 'report.md'), effectReportEnd(md, notes, await provenanceLines(ctx.inputs)));
    writeFileSync(join(ctx.outputDir, 'effects.json'), readFileSync(effects.file));
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
