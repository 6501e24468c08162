// effects-analyze: for every measured row, the effect cell (P50 and P90 of
// each side, the after/before ratio of medians with its two-level and
// between-session intervals, the direction per session) and the
// outcome (kept, too small to keep under analysis.practical, dropped); not-runnable rows keep their reasons and get no
// numbers. Reads the one sample table (samples.duckdb), analysis.bootstrap
// as every experiment does, and the practical floor analysis.practical. Writes effects.json. Changing the bootstrap or
// the rule reruns this stage and the report only, never the sampling.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageDefinition } from '../harness/contract/stage.js';
import { findInputFile, needInputFile } from '../harness/contract/exchange-files.js';
import { readLooks } from '../harness/comparison/looks-file.js';
import { writeNoiseFile } from '../harness/analysis/noise-file.js';
import { UserError } from '../harness/errors.js';
import { SampleJournal } from '../harness/db/sample-journal.js';
import { effectCell } from '../harness/sandbox/effect-cell.js';
import type { ReportedRow } from '../harness/sandbox/effect-table-md.js';
import { triedAndDropped } from '../harness/sandbox/tried-and-dropped.js';
import { practicalFloor } from '../harness/sandbox/practical-floor.js';
import { effectsOf, type RowRecord } from './effects-sample.js';

const effectsAnalyze: StageDefinition = {
  kind: 'effects-analyze',
  description:
    'Effect cells (P50/P90 before and after, two-level and between-session intervals of the ratio of medians) and the outcome of every row (kept, too small to keep, dropped).',
  reads: ['effects', 'analysis.bootstrap', 'analysis.practical', 'analysis.clusters'],
  readsObservations: true, // the sessions' records, for the noise flag calibrated on the canary (noise.json)
  async run(ctx) {
    const fx = effectsOf(ctx);
    const rules = ctx.config.rules;
    const bootstrap = rules.bootstrap;
    const floor = practicalFloor(ctx.config.rules.practical);
    const samplesFile = needInputFile(ctx, 'samples.duckdb', 'effects-sample');
    const rowsFile = needInputFile(ctx, 'rows.json', 'effects-sample');
    const samples = await SampleJournal.readRows(samplesFile.file);
    const records = JSON.parse(readFileSync(rowsFile.file, 'utf8')) as RowRecord[];
    // design.adaptive: the run stopped when decided, so its rows are judged by the sequential rule (comparison/judge.ts)
    const judging = { margin: rules.practical, looks: readLooks(findInputFile(ctx.inputs, 'adaptive.json')) };
    const out: ReportedRow[] = [];
    for (const row of fx.rows) {
      const rec = records.find((r) => r.id === row.id);
      if (!rec) throw new UserError(`row ${row.id} was not sampled`, { file: ctx.pipelineFile, key: `effects.rows` }, 'rerun the effects-sample stage');
      if (rec.state === 'not-runnable') {
        out.push({ row, state: 'not-runnable', reasons: rec.reasons });
        continue;
      }
      const cell = effectCell(row, samples, { ...bootstrap, seed: `${bootstrap.seed}\u0000${row.id}` }, rules.clusters, judging);
      const failed = samples.filter((s) => s['cohort'] === row.id && s['phase'] === 'formal' && s['ok'] !== true);
      out.push({
        row,
        state: 'measured',
        cell,
        verdict: triedAndDropped(cell, row.p90, floor, row.unit),
        failures: { before: failed.filter((s) => s['path'] === 'before').length, after: failed.filter((s) => s['path'] === 'after').length },
        facts: rec.facts,
      });
    }
    writeFileSync(join(ctx.outputDir, 'effects.json'), JSON.stringify(out, null, 2) + '\n');
    // the noise flag calibrated on the host canary, for the report's sessions table
    writeNoiseFile(ctx.inputs, ctx.outputDir, samples, bootstrap);
  },
};

export default effectsAnalyze;
