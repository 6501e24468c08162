// commit-analyze: medians per cell, paired naive/native ratios, growth fits
// with bootstrap intervals, compression medians -> commit-analysis.json.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageDefinition } from '../harness/contract/stage.js';
import { findInputFile } from '../harness/contract/exchange-files.js';
import { analyzeCommits } from '../harness/commit/commit-analysis.js';
import { readCommitRows } from '../harness/commit/read-commits.js';

const commitAnalyze: StageDefinition = {
  kind: 'commit-analyze',
  description:
    'Commit-diff analysis: P50 per cell, paired ratio naive/native with a bootstrap interval, log-log growth fits with a bootstrap interval of the slope.',
  reads: ['analysis'],
  async run(ctx) {
    const found = findInputFile(ctx.inputs, 'commits.duckdb');
    if (!found) throw new Error('commit-analyze needs a commit-sample stage (commits.duckdb)');
    const { rows, compression } = await readCommitRows(found.file);
    const boot = (ctx.config.analysis['bootstrap'] ?? {}) as { resamples?: number; confidence?: number; seed?: string };
    const result = analyzeCommits(rows, compression, {
      resamples: boot.resamples ?? 2000,
      confidence: boot.confidence ?? 0.95,
      seed: boot.seed ?? 'commit-diff',
    });
    writeFileSync(join(ctx.outputDir, 'commit-analysis.json'), JSON.stringify(result, null, 2) + '\n');
    ctx.log(`commit-analyze: ${result.cells.length} cell statistics, ${result.growth.length} growth fits`);
  },
};

export default commitAnalyze;
