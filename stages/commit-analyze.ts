// commit-analyze: medians per cell, paired naive/native ratios (wall, CPU), growth fits (power law and floor + cost)
// with bootstrap intervals, compression medians -> commit-analysis.json.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageDefinition } from '../harness/contract/stage.js';
import { findInputFile, needInputFile } from '../harness/contract/exchange-files.js';
import { readLooks } from '../harness/comparison/looks-file.js';
import { writeNoiseFile } from '../harness/analysis/noise-file.js';
import { analyzeCommits } from '../harness/commit/commit-analysis.js';
import { commitRowsOf } from '../harness/commit/commit-columns.js';
import { commitPositions } from '../harness/commit/commit-position.js';
import { SampleJournal } from '../harness/db/sample-journal.js';

const commitAnalyze: StageDefinition = {
  kind: 'commit-analyze',
  description:
    'Commit-diff analysis: P50 per cell, the naive/native ratio of medians (wall time and engine CPU) with two-level and between-session intervals, growth fits (log-log exponent and floor + cost per unit, each with bootstrap intervals, and their log-scale residuals).',
  reads: ['analysis.bootstrap', 'analysis.practical'],
  readsObservations: true, // the sessions' records, for the noise flag calibrated on the canary (noise.json)
  async run(ctx) {
    const found = needInputFile(ctx, 'samples.duckdb', 'commit-sample');
    const sampleRows = await SampleJournal.readRows(found.file);
    const { rows, compression } = commitRowsOf(sampleRows);
    // analysis.bootstrap is read in one place for every experiment.
    const bootstrap = ctx.config.rules.bootstrap;
    // design.adaptive: the run stopped when decided, so its ratios are judged by the sequential rule (comparison/judge.ts)
    const analysed = analyzeCommits(rows, compression, bootstrap, {
      margin: ctx.config.rules.practical,
      looks: readLooks(findInputFile(ctx.inputs, 'adaptive.json')),
    });
    // the place of each visit in its round, for the position effect
    const place = new Map<string, number>();
    for (const r of sampleRows)
      if (r['phase'] === 'formal' && r['order_in_round'] !== null && r['order_in_round'] !== undefined)
        place.set(`${String(r['session'])}|${String(r['round'])}|${String(r['cohort'])}|${String(r['path'])}`, Number(r['order_in_round']));
    const positions = commitPositions(rows, (r) => place.get(`${r.session}|${r.round}|${r.cell}|${r.method}`) ?? null, bootstrap);
    const result = { ...analysed, positions };
    writeFileSync(join(ctx.outputDir, 'commit-analysis.json'), JSON.stringify(result, null, 2) + '\n');
    // the noise flag calibrated on the host canary, for the report's sessions table
    writeNoiseFile(ctx.inputs, ctx.outputDir, sampleRows, bootstrap);
    ctx.log(`commit-analyze: ${result.cells.length} cell statistics, ${result.growth.length} growth fits`);
  },
};

export default commitAnalyze;
