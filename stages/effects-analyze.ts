// effects-analyze: for every measured row, the effect cell (P50 and P90 of
// each side, the paired-round bootstrap interval of the after/before ratio of
// medians, n) and the tried-and-dropped verdict; not-runnable rows keep their
// reasons and get no numbers. Writes effects.json. Changing the bootstrap or
// the rule reruns this stage and the report only, never the sampling.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageDefinition } from '../harness/contract/stage.js';
import { findInputFile } from '../harness/contract/exchange-files.js';
import { UserError } from '../harness/errors.js';
import type { EffectsSection } from '../harness/sandbox/effect-row.js';
import { effectCell } from '../harness/sandbox/effect-ratio.js';
import { parseEffectSamples, roundsOf } from '../harness/sandbox/effect-samples-csv.js';
import type { ReportedRow } from '../harness/sandbox/effect-table-md.js';
import { triedAndDropped } from '../harness/sandbox/tried-and-dropped.js';
import type { RowRecord } from './effects-sample.js';

const effectsAnalyze: StageDefinition = {
  kind: 'effects-analyze',
  description: 'Effect cells (P50/P90 before and after, bootstrap interval of the ratio of medians) and the tried-and-dropped verdict of every row.',
  reads: ['effects'],
  async run(ctx) {
    const fx = (ctx.config as unknown as { effects: EffectsSection }).effects;
    const samplesFile = findInputFile(ctx.inputs, 'samples.csv');
    const rowsFile = findInputFile(ctx.inputs, 'rows.json');
    if (!samplesFile || !rowsFile)
      throw new UserError(`stage ${ctx.id} needs the effects-sample stage`, { key: `stages.${ctx.id}.needs` }, 'add the effects-sample stage to needs');
    const samples = parseEffectSamples(readFileSync(samplesFile.file, 'utf8'), samplesFile.file);
    const records = JSON.parse(readFileSync(rowsFile.file, 'utf8')) as RowRecord[];
    const out: ReportedRow[] = [];
    for (const row of fx.rows) {
      const rec = records.find((r) => r.id === row.id);
      if (!rec) throw new UserError(`row ${row.id} was not sampled`, { key: `effects.rows` }, 'rerun the effects-sample stage');
      if (rec.state === 'not-runnable') {
        out.push({ row, state: 'not-runnable', reasons: rec.reasons });
        continue;
      }
      const cell = effectCell(roundsOf(samples, row.id), { ...fx.bootstrap, seed: `${fx.seed}\u0000${row.id}` });
      const mine = samples.filter((s) => s.row === row.id && s.state !== 'ok');
      out.push({
        row,
        state: 'measured',
        cell,
        verdict: triedAndDropped(cell, row.p90),
        failures: { before: mine.filter((s) => s.side === 'before').length, after: mine.filter((s) => s.side === 'after').length },
        facts: rec.facts,
      });
    }
    writeFileSync(join(ctx.outputDir, 'effects.json'), JSON.stringify(out, null, 2) + '\n');
  },
};

export default effectsAnalyze;
