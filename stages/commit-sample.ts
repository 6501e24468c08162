// commit-sample: the measured part of the commit-diff experiment (seed 001),
// on the experiment model (experiment/sample-experiment.ts) with the commit
// adapter (commit/commit-adapter.ts): design.sessions independent sessions,
// each with both private engines started afresh (naive: overlay redirect_dir
// on at its start; native: off) and the pinned base image imported; warmup
// rounds on the smallest cell, then formal rounds over every cell of
// design.matrix, engines in the design's order, each measured commit after an
// untimed settle; one row per commit in the one sample table. An interrupted
// run resumes at the first incomplete round. Unequal change sets of the two
// engines fail the stage (exit 1) after sampling. The last session runs the
// compression step on its native engine.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageDefinition } from '../harness/contract/stage.js';
import { CheckFailed, UserError } from '../harness/errors.js';
import { Launcher } from '../harness/launch/launcher.js';
import { matrixCells, type MatrixBlock } from '../harness/experiment/design-matrix.js';
import { restoreLeftoverRedirectDir } from '../harness/process/overlay-redirect-dir.js';
import { sampleExperiment } from '../harness/experiment/sample-experiment.js';
import { commitMatrixProblems } from '../harness/commit/commit-cell.js';
import { commitAdapter, type CompressionPlan } from '../harness/commit/commit-adapter.js';
import { registerAdapterFactory, withAdapter } from '../harness/experiment/adapter-registry.js';
import type { StageContext } from '../harness/contract/stage.js';
import { adaptiveKeySlice, adaptiveReads } from '../harness/experiment/adaptive-reads.js';

const checksDirOf = (ctx: StageContext): string => join(ctx.workDir, 'checks');
const listingsDirOf = (ctx: StageContext): string => join(ctx.workDir, 'listings');

/** The commit adapter with its own launcher; a Slurm job builds the same one on its node. */
const openCommitAdapter = registerAdapterFactory('commit-sample', async (ctx) => {
  const cells = matrixCells((ctx.config.design.matrix ?? []) as MatrixBlock[]);
  const launcher = await Launcher.start();
  const compression = ctx.params['compression'] as CompressionPlan | undefined;
  return {
    adapter: commitAdapter(ctx, { cells, launcher, compression, checksDir: checksDirOf(ctx), listingsDir: listingsDirOf(ctx) }),
    close: () => launcher.close(),
  };
});

const commitSample: StageDefinition = {
  kind: 'commit-sample',
  description:
    'docker commit on a naive-diff and a native-diff private engine over design.matrix, in independent sessions of balanced settled rounds: time, engine CPU, bytes read, layer size; change sets compared; compression step.',
  reads: ['experiment.name', 'design', ...adaptiveReads],
  // design.adaptive stops by analysis.practical and analysis.comparisons: in the key only when it is on
  keyConfig: adaptiveKeySlice,
  extraCode: ['harness/launch/launcher.c', 'harness/launch/canary.c'],
  async run(ctx) {
    const design = ctx.config.design;
    const cells = matrixCells((design.matrix ?? []) as MatrixBlock[]);
    const problems = commitMatrixProblems(cells);
    if (problems.length) {
      throw new UserError(
        problems.join('; '),
        { file: ctx.pipelineFile, key: 'design.matrix' },
        'every block of design.matrix names total_mb, file_count and change_bytes',
      );
    }
    const leftover = restoreLeftoverRedirectDir(ctx.dataDir);
    if (leftover) ctx.log(leftover);
    const checksDir = checksDirOf(ctx);
    const listingsDir = listingsDirOf(ctx);
    mkdirSync(checksDir, { recursive: true });
    const started = Date.now();
    await withAdapter(openCommitAdapter, ctx, (adapter) => sampleExperiment(ctx, adapter));
    if (existsSync(listingsDir)) cpSync(listingsDir, join(ctx.outputDir, 'listings'), { recursive: true });
    const checks = readdirSync(checksDir)
      .sort((a, b) => parseInt(a, 10) - parseInt(b, 10))
      .flatMap((f) => JSON.parse(readFileSync(join(checksDir, f), 'utf8')) as Record<string, unknown>[]);
    writeFileSync(join(ctx.outputDir, 'change-set-checks.json'), JSON.stringify(checks, null, 2) + '\n');
    const session = { seed: design.seed, sessions: design.sessions, rounds: design.rounds, warmupRounds: design.warmup_rounds, order: design.order };
    writeFileSync(
      join(ctx.outputDir, 'session.json'),
      JSON.stringify({ ...session, cells: cells.map((c) => c.values), image: ctx.params['image'] }, null, 2) + '\n',
    );
    writeFileSync(join(ctx.observationsDir, 'duration.json'), JSON.stringify({ durationS: (Date.now() - started) / 1000 }) + '\n');
    const mismatches = checks
      .filter((c) => c['equal'] !== true)
      .map(
        (c) => `${String(c['cell'])} ${String(c['state'])}: ${(c['differences'] as string[]).length} differences, first: ${(c['differences'] as string[])[0]}`,
      );
    if (mismatches.length) throw new CheckFailed('the naive and native engines committed different change sets', mismatches);
  },
};

export default commitSample;
