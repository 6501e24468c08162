// commit-sample: the measured part of the commit-diff experiment (seed 001).
// Starts two private engines from the same dockerd (naive: overlay
// redirect_dir on at its start; native: off), checks their diff mode, imports
// the pinned base image into both, then for every round and every cell of
// design.matrix runs the initial and incremental workloads on both engines in
// a seeded order, one DuckDB row per measured commit. In the first formal
// round of each cell the committed layers of both engines are listed; unequal
// change sets fail the stage (exit 1) after sampling. Then the compression
// step on the native engine's largest initial layer.
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageContext, StageDefinition } from '../harness/contract/stage.js';
import { CheckFailed, UserError } from '../harness/errors.js';
import { onCleanup } from '../harness/process/cleanup.js';
import { mountsUnder } from '../harness/process/mount-table.js';
import { Launcher } from '../harness/launch/launcher.js';
import { matrixCells, type MatrixBlock } from '../harness/design/design-matrix.js';
import { seededRandom, randomInt } from '../harness/stats/seeded-random.js';
import { restoreLeftoverRedirectDir } from '../harness/process/overlay-redirect-dir.js';
import { startCommitEngines, type CommitEngine } from '../harness/commit/commit-engines.js';
import { docker } from '../harness/commit/docker-cli.js';
import { commitMatrixProblems, COMMIT_DIMENSIONS, workloadOf } from '../harness/commit/commit-cell.js';
import { removeWorkload, runCommitWorkload } from '../harness/commit/commit-workload.js';
import { CommitJournal } from '../harness/commit/commit-journal.js';
import { listingDifferences, topLayerListing } from '../harness/commit/layer-listing.js';
import { runCompression } from '../harness/commit/compression-step.js';

const BASE_IMAGE = 'benchgraph/commit-base:latest';

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = randomInt(random, i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

async function importBase(ctx: StageContext, engines: CommitEngine[]): Promise<void> {
  const imageId = String(ctx.params['image']);
  const pinId = Object.values(ctx.inputs).find((i) => i.kind === 'pin');
  if (!pinId) throw new Error('commit-sample needs a pin stage');
  const pins = JSON.parse(readFileSync(join(pinId.outputDir, 'pins.json'), 'utf8')) as { images: Record<string, { tarFile: string }> };
  const pin = pins.images[imageId];
  if (!pin)
    throw new UserError(
      `image '${imageId}' is not among the pinned images (${Object.keys(pins.images).join(', ')})`,
      { file: ctx.pipelineFile, key: `stages.${ctx.id}.with.image` },
      'name an image of artifacts.images',
    );
  for (const e of engines) await docker({ socket: e.socket }, ['import', join(pinId.outputDir, pin.tarFile), BASE_IMAGE]);
}

const commitSample: StageDefinition = {
  kind: 'commit-sample',
  description:
    'docker commit on a naive-diff and a native-diff private engine over design.matrix: time, engine CPU, bytes read, layer size; change sets compared; compression step.',
  reads: ['experiment', 'design'],
  extraCode: ['harness/launch/launcher.c'],
  async run(ctx) {
    const design = ctx.config.design;
    const blocks = (design.matrix ?? []) as MatrixBlock[];
    const cells = matrixCells(blocks);
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
    const tmpRoot = join(ctx.dataDir, 'tmp');
    mkdirSync(tmpRoot, { recursive: true });
    const runDir = mkdtempSync(join(tmpRoot, 'commit-engines-'));
    // The engines' stop and the folder's removal can be started from two places at once (the
    // signal handler's cleanup and this stage's finally): the folder goes only after the engines are down.
    let enginesStopping: Promise<void> = Promise.resolve();
    const removeRunDir = onCleanup(`commit engines folder ${runDir}`, async () => {
      await enginesStopping;
      const mounted = mountsUnder(runDir);
      if (mounted.length) throw new Error(`still mounted, not removed: ${mounted.join(', ')}`);
      rmSync(runDir, { recursive: true, force: true });
    });
    const started = Date.now();
    const journalFile = join(ctx.workDir, 'commits.duckdb');
    const journal = await CommitJournal.open(journalFile, COMMIT_DIMENSIONS);
    const resumed = await journal.resume();
    if (resumed.formal.size || resumed.dropped)
      ctx.log(`resuming: ${resumed.formal.size} cell-rounds already done, ${resumed.dropped} rows of unfinished ones discarded`);
    const listingsDir = join(ctx.workDir, 'listings');
    const launcher = await Launcher.start();
    const engines = await startCommitEngines(ctx.dataDir, runDir, ctx.log);
    const stopEngines = onCleanup('commit engines', () => {
      enginesStopping = (async () => {
        for (const e of engines) await e.stop();
      })();
      return enginesStopping;
    });
    const timeoutMs = design.timeout_s * 1000;
    try {
      await importBase(ctx, engines);
      const random = seededRandom(design.seed);
      const smallest = [...cells].sort((a, b) => workloadOf(a).totalBytes - workloadOf(b).totalBytes)[0]!;
      const schedule = [
        ...Array.from({ length: design.warmup_rounds }, (_, i) => ({ phase: 'warmup' as const, round: i + 1, cells: [smallest] })),
        ...Array.from({ length: design.rounds }, (_, i) => ({ phase: 'formal' as const, round: i + 1, cells })),
      ];
      const listed = new Set((await journal.checks()).map((c) => String(c['cell'])));
      for (const step of schedule) {
        let order = 0;
        for (const cell of shuffled(step.cells, random)) {
          const work = workloadOf(cell);
          const engineOrder = shuffled(engines, random); // drawn even when skipped, so a resumed run keeps the seeded order
          if (step.phase === 'formal' && resumed.formal.has(`${step.round}/${cell.id}`)) {
            order += engines.length;
            continue;
          }
          const listings: Record<string, Record<string, string[]>> = {};
          const listHere = step.phase === 'formal' && !listed.has(cell.id);
          for (const engine of engineOrder) {
            if (ctx.signal.aborted) throw ctx.signal.reason;
            order++;
            const tag = `${step.phase[0]}${step.round}-${order}`;
            ctx.progress?.(
              `commit-sample: ${step.phase} round ${step.round}/${step.phase === 'formal' ? design.rounds : design.warmup_rounds}, ${cell.id}, ${engine.method}`,
            );
            const startedAt = new Date().toISOString();
            const stepStart = Date.now();
            try {
              const obs = await runCommitWorkload(launcher, engine, BASE_IMAGE, work, tag, timeoutMs, ctx.signal);
              for (const o of obs) {
                await journal.add({
                  ...o,
                  cell: cell.id,
                  dims: cell.values as Record<string, number>,
                  method: engine.method,
                  phase: step.phase,
                  round: step.round,
                  orderInRound: order,
                  startedAt,
                });
              }
              ctx.log(
                `${step.phase} round ${step.round} ${cell.id} ${engine.method}: ${obs.map((o) => `${o.state} ${o.ok ? `${((o.wallMs ?? 0) / 1000).toFixed(2)} s` : 'FAILED'}`).join(', ')}; workload ${((Date.now() - stepStart) / 1000).toFixed(1)} s`,
              );
              if (listHere && obs.every((o) => o.ok)) {
                listings[engine.method] = {};
                for (const o of obs) {
                  const l = await topLayerListing({ socket: engine.socket }, o.image, runDir);
                  rmSync(join(l.layerTar, '..', '..'), { recursive: true, force: true });
                  listings[engine.method]![o.state] = l.lines;
                }
              }
            } finally {
              await removeWorkload(engine, tag);
              if (listHere) ctx.log(`  with listing and cleanup: ${((Date.now() - stepStart) / 1000).toFixed(1)} s`);
            }
          }
          const checks: Record<string, unknown>[] = [];
          if (listHere) {
            listed.add(cell.id);
            const dir = join(listingsDir, cell.id.replace(/[^A-Za-z0-9=,._-]/g, '_'));
            mkdirSync(dir, { recursive: true });
            for (const [method, byState] of Object.entries(listings)) {
              for (const [state, lines] of Object.entries(byState)) writeFileSync(join(dir, `${method}-${state}.txt`), lines.join('\n') + '\n');
            }
            for (const state of ['initial', 'incremental']) {
              const a = listings['naive']?.[state];
              const b = listings['native']?.[state];
              const diff = a && b ? listingDifferences(a, b, ['naive', 'native']) : ['a commit failed: no listing to compare'];
              checks.push({ cell: cell.id, state, entries: a?.length ?? null, equal: diff.length === 0, differences: diff.slice(0, 50) });
            }
          }
          if (step.phase === 'formal') await journal.markDone(cell.id, step.phase, step.round, listHere ? checks : null);
        }
      }
      const compression = ctx.params['compression'] as { total_mb: number; file_count: number; rounds: number } | undefined;
      if (compression && compression.rounds > 0) {
        const native = engines.find((e) => e.method === 'native')!;
        await runCompression(ctx, launcher, native, BASE_IMAGE, compression, journal, runDir, timeoutMs, resumed.compressionRounds);
      }
    } finally {
      await journal.close();
      await launcher.close();
      await stopEngines();
      await removeRunDir();
    }
    const reopened = await CommitJournal.open(journalFile, COMMIT_DIMENSIONS);
    const checks = await reopened.checks();
    await reopened.close();
    copyFileSync(journalFile, join(ctx.outputDir, 'commits.duckdb'));
    if (existsSync(listingsDir)) cpSync(listingsDir, join(ctx.outputDir, 'listings'), { recursive: true });
    const mismatches = checks
      .filter((c) => c['equal'] !== true)
      .map(
        (c) => `${String(c['cell'])} ${String(c['state'])}: ${(c['differences'] as string[]).length} differences, first: ${(c['differences'] as string[])[0]}`,
      );
    writeFileSync(join(ctx.outputDir, 'change-set-checks.json'), JSON.stringify(checks, null, 2) + '\n');
    writeFileSync(
      join(ctx.outputDir, 'session.json'),
      JSON.stringify(
        {
          seed: design.seed,
          rounds: design.rounds,
          warmupRounds: design.warmup_rounds,
          cells: cells.map((c) => c.values),
          image: ctx.params['image'],
          durationS: (Date.now() - started) / 1000,
          cpus: (await import('node:os')).cpus().length,
        },
        null,
        2,
      ) + '\n',
    );
    if (mismatches.length) throw new CheckFailed('the naive and native engines committed different change sets', mismatches);
  },
};

export default commitSample;
