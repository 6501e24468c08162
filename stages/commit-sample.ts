// commit-sample: the measured part of the commit-diff experiment (seed 001),
// in `design.sessions` independent sessions on the experiment model. Each
// session starts two private engines from the same dockerd (naive: overlay
// redirect_dir on at its start; native: off), checks their diff mode and
// imports the pinned base image into both; then its warmup rounds (smallest
// cell) and formal rounds go through the one round runner: every visit runs
// the initial and incremental workloads on one engine, each measured commit
// after an untimed settle, and journals one row per commit in the one sample
// table (cohort = cell, path = method, state = initial/incremental, with the
// experiment's declared columns, commit/commit-columns.ts). An interrupted
// run resumes at the first incomplete round. In the first formal round of
// each cell the committed layers of both engines are listed; unequal change
// sets fail the stage (exit 1) after sampling. The last session runs the
// compression step on its native engine.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageContext, StageDefinition } from '../harness/contract/stage.js';
import { findInputFile, type SessionRecord } from '../harness/contract/exchange-files.js';
import { CheckFailed, UserError } from '../harness/errors.js';
import { onCleanup } from '../harness/process/cleanup.js';
import { mountsUnder } from '../harness/process/mount-table.js';
import { hostName } from '../harness/process/host-name.js';
import { Launcher } from '../harness/launch/launcher.js';
import { matrixCells, type MatrixBlock } from '../harness/design/design-matrix.js';
import { restoreLeftoverRedirectDir } from '../harness/process/overlay-redirect-dir.js';
import { SampleJournal } from '../harness/db/sample-journal.js';
import type { SampleRow } from '../harness/db/sample-columns.js';
import { formatProgress } from '../harness/experiment/progress-line.js';
import { runRounds } from '../harness/experiment/run-rounds.js';
import { launchId, remainingWork } from '../harness/experiment/session-plan.js';
import { startSessionRecord } from '../harness/experiment/session-record.js';
import { startCommitEngines, type CommitEngine } from '../harness/commit/commit-engines.js';
import { docker } from '../harness/commit/docker-cli.js';
import { commitMatrixProblems, workloadOf } from '../harness/commit/commit-cell.js';
import { commitColumns, COMPRESSION_UNIT } from '../harness/commit/commit-columns.js';
import { commitSteps } from '../harness/commit/commit-steps.js';
import { removeWorkload, runCommitWorkload, type CommitObservation } from '../harness/commit/commit-workload.js';
import { listingDifferences, topLayerListing } from '../harness/commit/layer-listing.js';
import { runCompression, type CompressionLaunch } from '../harness/commit/compression-step.js';

const BASE_IMAGE = 'benchgraph/commit-base:latest';
const METHODS = ['naive', 'native'] as const;
const STATES = ['initial', 'incremental'] as const;

interface Compression {
  total_mb: number;
  file_count: number;
  rounds: number;
}

async function importBase(ctx: StageContext, engines: CommitEngine[]): Promise<void> {
  const imageId = String(ctx.params['image']);
  const pins = findInputFile(ctx.inputs, 'pins.json');
  if (!pins) throw new UserError(`stage ${ctx.id} needs the pin stage`, { file: ctx.pipelineFile, key: `stages.${ctx.id}.needs` }, 'add pin to needs');
  const pin = (JSON.parse(readFileSync(pins.file, 'utf8')) as { images: Record<string, { tarFile: string }> }).images[imageId];
  if (!pin)
    throw new UserError(
      `image '${imageId}' is not among the pinned images`,
      { file: ctx.pipelineFile, key: `stages.${ctx.id}.with.image` },
      'name an image of artifacts.images',
    );
  for (const e of engines) await docker({ socket: e.socket }, ['import', join(pins.input.outputDir, pin.tarFile), BASE_IMAGE]);
}

/** A journal row of one commit (or of a commit never made because the initial one failed). */
function commitRow(
  ctx: StageContext,
  at: {
    session: number;
    attempt: number;
    cell: string;
    dims: Record<string, string | number>;
    method: string;
    phase: 'warmup' | 'formal';
    round: number;
    position: number;
    previous: string | null;
  },
  state: (typeof STATES)[number],
  o: CommitObservation | null,
  startedAt: string,
): SampleRow {
  return {
    experiment: ctx.config.experiment.name,
    cohort: at.cell,
    path: at.method,
    state,
    phase: at.phase,
    round: at.round,
    order_in_round: at.position,
    previous_path: at.previous,
    launch_id: launchId(at.session, at.attempt, at.cell, at.method, state, at.phase, at.round),
    session: at.session,
    host: hostName(),
    ...Object.fromEntries(Object.entries(at.dims).map(([k, v]) => [k, Number(v)])),
    completion_ms: o?.wallMs ?? null,
    ok: o?.ok ?? false,
    failure_reason: o ? o.failureReason : 'not committed: the initial commit of this visit failed',
    started_at: startedAt,
    engine_cpu_ms: o?.engineCpuMs ?? null,
    disk_read_bytes: o?.diskReadBytes ?? null,
    read_chars_bytes: o?.readCharsBytes ?? null,
    layer_bytes: o?.layerBytes ?? null,
    settle_ms: o?.settled.settleMs ?? null,
    dirty_kb: o?.settled.dirtyKb ?? null,
    writeback_kb: o?.settled.writebackKb ?? null,
    settle_timed_out: o && o.settled.settleMs !== null ? o.settled.timedOut : null,
  };
}

const commitSample: StageDefinition = {
  kind: 'commit-sample',
  description:
    'docker commit on a naive-diff and a native-diff private engine over design.matrix, in independent sessions of balanced settled rounds: time, engine CPU, bytes read, layer size; change sets compared; compression step.',
  reads: ['experiment.name', 'design'],
  extraCode: ['harness/launch/launcher.c'],
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
    const compression = ctx.params['compression'] as Compression | undefined;
    const journal = await SampleJournal.open(join(ctx.workDir, 'samples.duckdb'), commitColumns);
    const checksDir = join(ctx.workDir, 'checks');
    const listingsDir = join(ctx.workDir, 'listings');
    const recordsDir = join(ctx.workDir, 'session-records');
    for (const d of [checksDir, recordsDir]) mkdirSync(d, { recursive: true });
    const started = Date.now();
    const launcher = await Launcher.start();
    try {
      const attempt = (await journal.lastAttempt()) + 1;
      const rows = await journal.rows();
      const work = remainingWork(
        (await journal.formalRows()).filter((r) => r.cohort !== COMPRESSION_UNIT),
        { sessions: design.sessions, rounds: design.rounds, cohorts: cells.map((c) => c.id), paths: METHODS, states: STATES },
      );
      let complete = 0;
      let partial = 0;
      for (const w of work)
        for (const c of w.cohorts) {
          complete += c.completeRounds;
          partial += c.partialRounds.length;
          if (c.partialRounds.length) await journal.discardRounds(w.session, c.cohort, c.partialRounds);
        }
      if (complete || partial) ctx.log(`resuming: ${complete} cell-rounds already done, ${partial} unfinished ones discarded`);
      const compressionDone = new Set(
        [...new Set(rows.filter((r) => r['cohort'] === COMPRESSION_UNIT).map((r) => Number(r['round'])))].filter(
          (round) => rows.filter((r) => r['cohort'] === COMPRESSION_UNIT && Number(r['round']) === round).length >= 3,
        ),
      );
      const compressionLeft = compression && compression.rounds > 0 && compressionDone.size < compression.rounds;
      // Every session with rounds left; and one for the compression alone when only it is left.
      const sessions = work.length ? work : compressionLeft ? [{ session: design.sessions, cohorts: [] }] : [];
      const smallest = [...cells].sort((a, b) => workloadOf(a).totalBytes - workloadOf(b).totalBytes)[0]!;
      const total = sessions.reduce((n, w) => n + (design.warmup_rounds + w.cohorts.reduce((m, c) => m + c.rounds.length, 0)) * METHODS.length, 0);
      let done = 0;
      let failures = 0;
      for (const [i, w] of sessions.entries()) {
        const closeRecord = startSessionRecord(w.session, attempt, [ctx.dataDir, '/bg-engine-']);
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
        const engines = await startCommitEngines(ctx.dataDir, runDir, ctx.log);
        const stopEngines = onCleanup('commit engines', () => {
          enginesStopping = (async () => {
            for (const e of engines) await e.stop();
          })();
          return enginesStopping;
        });
        try {
          await importBase(ctx, engines);
          const listings = new Map<string, Record<string, Record<string, string[]>>>();
          let line = '';
          await runRounds({
            seed: design.seed,
            session: w.session,
            order: design.order,
            arms: METHODS,
            steps: w.cohorts.length
              ? commitSteps(w, {
                  seed: design.seed,
                  warmupRounds: design.warmup_rounds,
                  formalRounds: design.rounds,
                  cells: cells.map((c) => c.id),
                  smallest: smallest.id,
                })
              : [],
            signal: ctx.signal,
            visit: async (v) => {
              const cell = cells.find((c) => c.id === v.unit)!;
              const engine = engines.find((e) => e.method === v.arm)!;
              const phase = v.phase as 'warmup' | 'formal';
              const tag = `s${w.session}-${phase[0]}${v.round}-${cells.indexOf(cell)}-${v.arm}`;
              const listHere = phase === 'formal' && !existsSync(join(checksDir, `${cells.indexOf(cell)}.json`));
              const startedAt = new Date().toISOString();
              const stepStart = Date.now();
              try {
                const obs = await runCommitWorkload(
                  launcher,
                  engine,
                  BASE_IMAGE,
                  workloadOf(cell),
                  tag,
                  Math.round(design.timeout_s * 1000),
                  design.settle,
                  ctx.signal,
                );
                if (ctx.signal.aborted) throw ctx.signal.reason as Error;
                const at = {
                  session: w.session,
                  attempt,
                  cell: cell.id,
                  dims: cell.values,
                  method: v.arm,
                  phase,
                  round: v.round,
                  position: v.position,
                  previous: v.previous,
                };
                for (const state of STATES) {
                  const row = commitRow(ctx, at, state, obs.find((o) => o.state === state) ?? null, startedAt);
                  await journal.append(row);
                  done += state === 'initial' ? 1 : 0;
                  if (!row['ok']) failures++;
                }
                ctx.log(
                  `session ${w.session} ${phase} round ${v.round} ${cell.id} ${v.arm}: ${obs.map((o) => `${o.state} ${o.ok ? `${((o.wallMs ?? 0) / 1000).toFixed(2)} s` : 'FAILED'}`).join(', ')}; workload ${((Date.now() - stepStart) / 1000).toFixed(1)} s`,
                );
                if (listHere && obs.length === STATES.length && obs.every((o) => o.ok)) {
                  const byState: Record<string, string[]> = {};
                  for (const o of obs) {
                    const l = await topLayerListing({ socket: engine.socket }, o.image, runDir);
                    rmSync(join(l.layerTar, '..', '..'), { recursive: true, force: true });
                    byState[o.state] = l.lines;
                  }
                  listings.set(cell.id, { ...(listings.get(cell.id) ?? {}), [v.arm]: byState });
                } else if (listHere) listings.set(cell.id, listings.get(cell.id) ?? {});
              } finally {
                await removeWorkload(engine, tag);
              }
              line =
                `session ${w.session}/${design.sessions} ` +
                formatProgress({
                  cohort: cell.id,
                  phase,
                  round: v.round,
                  rounds: phase === 'formal' ? design.rounds : design.warmup_rounds,
                  launchesDone: done,
                  launchesTotal: total,
                  failures,
                  elapsedMs: Date.now() - started,
                });
              ctx.progress?.(line);
            },
            afterRound: (step) => {
              const listed = listings.get(step.unit);
              if (step.phase !== 'formal' || !listed) return;
              listings.delete(step.unit);
              const index = cells.findIndex((c) => c.id === step.unit);
              const dir = join(listingsDir, step.unit.replace(/[^A-Za-z0-9=,._-]/g, '_'));
              mkdirSync(dir, { recursive: true });
              for (const [method, byState] of Object.entries(listed))
                for (const [state, lines] of Object.entries(byState)) writeFileSync(join(dir, `${method}-${state}.txt`), lines.join('\n') + '\n');
              const checks = STATES.map((state) => {
                const a = listed['naive']?.[state];
                const b = listed['native']?.[state];
                const diff = a && b ? listingDifferences(a, b, ['naive', 'native']) : ['a commit failed: no listing to compare'];
                return { cell: step.unit, state, entries: a?.length ?? null, equal: diff.length === 0, differences: diff.slice(0, 50) };
              });
              writeFileSync(join(checksDir, `${index}.json`), JSON.stringify(checks) + '\n');
              ctx.log(line);
            },
          });
          if (i === sessions.length - 1 && compressionLeft) {
            const native = engines.find((e) => e.method === 'native')!;
            const record = async (round: number, launches: CompressionLaunch[]): Promise<void> => {
              for (const [position, l] of launches.entries()) {
                await journal.append({
                  experiment: ctx.config.experiment.name,
                  cohort: COMPRESSION_UNIT,
                  path: l.method,
                  state: 'none',
                  phase: 'formal',
                  round,
                  order_in_round: position,
                  previous_path: position > 0 ? launches[position - 1]!.method : null,
                  launch_id: launchId(w.session, attempt, COMPRESSION_UNIT, l.method.replace(/[^A-Za-z0-9-]+/g, '-'), 'none', 'formal', round),
                  session: w.session,
                  host: hostName(),
                  completion_ms: l.wallMs,
                  ok: l.ok,
                  failure_reason: l.failureReason,
                  started_at: new Date().toISOString(),
                  layer_bytes: l.layerBytes,
                  compressed_bytes: l.compressedBytes,
                  note: l.note,
                });
              }
            };
            await runCompression(ctx, launcher, native, BASE_IMAGE, compression!, record, runDir, Math.round(design.timeout_s * 1000), compressionDone);
          }
        } finally {
          await stopEngines();
          await removeRunDir();
        }
        writeFileSync(join(recordsDir, `S${w.session}.a${attempt}.json`), JSON.stringify(closeRecord()) + '\n');
      }
      await journal.exportTo(join(ctx.outputDir, 'samples.duckdb'));
    } finally {
      await journal.close();
      await launcher.close();
    }
    if (existsSync(listingsDir)) cpSync(listingsDir, join(ctx.outputDir, 'listings'), { recursive: true });
    const checks = readdirSync(checksDir)
      .sort((a, b) => parseInt(a, 10) - parseInt(b, 10))
      .flatMap((f) => JSON.parse(readFileSync(join(checksDir, f), 'utf8')) as Record<string, unknown>[]);
    writeFileSync(join(ctx.outputDir, 'change-set-checks.json'), JSON.stringify(checks, null, 2) + '\n');
    writeFileSync(
      join(ctx.outputDir, 'session.json'),
      JSON.stringify(
        {
          seed: design.seed,
          sessions: design.sessions,
          rounds: design.rounds,
          warmupRounds: design.warmup_rounds,
          order: design.order,
          cells: cells.map((c) => c.values),
          image: ctx.params['image'],
        },
        null,
        2,
      ) + '\n',
    );
    const sessionRecords = readdirSync(recordsDir)
      .sort()
      .map((f) => JSON.parse(readFileSync(join(recordsDir, f), 'utf8')) as SessionRecord)
      .sort((x, y) => x.session - y.session || x.attempt - y.attempt);
    writeFileSync(join(ctx.observationsDir, 'sessions.json'), JSON.stringify(sessionRecords, null, 2) + '\n');
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
