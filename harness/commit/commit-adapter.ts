// The arm adapter of the commit-diff experiment: a session starts the naive
// and the native engine afresh (commit-engines.ts) and imports the base image;
// a visit runs both workloads of one cell on one engine and becomes two rows
// (initial, incremental). In the first formal round of each cell the
// committed layers of both engines are listed and compared; the last session
// runs the compression step on its native engine.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageContext } from '../contract/stage.js';
import { pinnedImageTar } from '../contract/exchange-files.js';
import { outcomeOf } from '../db/sample-row.js';
import type { Cell } from '../experiment/design-matrix.js';
import type { AdapterVisit, ExperimentAdapter } from '../experiment/sample-experiment.js';
import { launchId } from '../experiment/session-plan.js';
import { settleColumns, visitColumns } from '../experiment/launch-columns.js';
import type { Launcher } from '../launch/launcher.js';
import { onCleanup } from '../process/cleanup.js';
import { hostName } from '../process/host-name.js';
import { mountsUnder } from '../process/mount-table.js';
import { workloadOf } from './commit-cell.js';
import { commitColumns, COMPRESSION_UNIT, engineMeasureColumns, type CommitColumns, type CommitRow } from './commit-columns.js';
import { startCommitEngines, type CommitEngine } from './commit-engines.js';
import { commitSteps } from './commit-steps.js';
import { removeWorkload, runCommitWorkload, type CommitObservation } from './commit-workload.js';
import { runCompression, type CompressionLaunch } from './compression-step.js';
import { docker } from './docker-cli.js';
import { listedDirectories, listingDifferences, tarFileListing, topLayerListing, withoutNoOpOpaqueMarkers } from './layer-listing.js';

const BASE_IMAGE = 'benchgraph/commit-base:latest';
export const COMMIT_METHODS = ['naive', 'native'] as const;
export const COMMIT_STATES = ['initial', 'incremental'] as const;

export interface CompressionPlan {
  total_mb: number;
  file_count: number;
  rounds: number;
}

/** Imports the pinned base image into each engine; returns the directories it holds (the lower layer of every initial commit). */
async function importBase(ctx: StageContext, engines: CommitEngine[]): Promise<Set<string>> {
  const tar = pinnedImageTar(ctx.inputs, String(ctx.params['image']), { file: ctx.pipelineFile, stageId: ctx.id, key: `stages.${ctx.id}.with.image` });
  for (const e of engines) await docker({ socket: e.socket }, ['import', tar, BASE_IMAGE]);
  return listedDirectories(await tarFileListing(tar));
}

/** A journal row of one commit (or of a commit never made because the initial one failed). */
function commitRow(
  experiment: string,
  v: AdapterVisit,
  dims: Cell['values'],
  state: (typeof COMMIT_STATES)[number],
  o: CommitObservation | null,
  startedAt: string,
): CommitRow {
  return {
    ...visitColumns(experiment, v, state),
    ...Object.fromEntries(Object.entries(dims).map(([k, x]) => [k, Number(x)])),
    completion_ms: o?.wallMs ?? null,
    ...outcomeOf(o?.ok ?? false, o ? o.failureReason : 'not committed: the initial commit of this visit failed'),
    started_at: startedAt,
    ...engineMeasureColumns(o),
    ...settleColumns(o?.settled ?? null),
  };
}

/** Compression launches of one round as journal rows (cohort `compression`, path = the tool). */
function compressionRows(experiment: string, session: number, attempt: number, round: number, launches: readonly CompressionLaunch[]): CommitRow[] {
  return launches.map((l, position) => ({
    experiment,
    cohort: COMPRESSION_UNIT,
    path: l.method,
    state: 'none',
    phase: 'formal',
    round,
    order_in_round: position,
    previous_path: position > 0 ? launches[position - 1]!.method : null,
    launch_id: launchId(session, attempt, COMPRESSION_UNIT, l.method.replace(/[^A-Za-z0-9-]+/g, '-'), 'none', 'formal', round),
    session,
    host: hostName(),
    completion_ms: l.wallMs,
    ...outcomeOf(l.ok, l.failureReason),
    started_at: new Date().toISOString(),
    layer_bytes: l.layerBytes,
    compressed_bytes: l.compressedBytes,
    note: l.note,
  }));
}

/** Compression rounds whose three launches are all journaled. */
function compressionDone(rows: readonly CommitRow[]): Set<number> {
  const perRound = new Map<number, number>();
  for (const r of rows) if (r['cohort'] === COMPRESSION_UNIT) perRound.set(Number(r['round']), (perRound.get(Number(r['round'])) ?? 0) + 1);
  return new Set([...perRound].filter(([, n]) => n >= 3).map(([round]) => round));
}

export interface CommitAdapterOptions {
  cells: readonly Cell[];
  launcher: Launcher;
  compression: CompressionPlan | undefined;
  /** Folder of the change-set checks (one file per listed cell) and of the listings. */
  checksDir: string;
  listingsDir: string;
}

export function commitAdapter(ctx: StageContext, o: CommitAdapterOptions): ExperimentAdapter<CommitColumns> {
  const design = ctx.config.design;
  const timeoutMs = Math.round(design.timeout_s * 1000);
  const ids = o.cells.map((c) => c.id);
  const smallest = [...o.cells].sort((a, b) => workloadOf(a).totalBytes - workloadOf(b).totalBytes)[0]!;
  const checkFile = (cell: string): string => join(o.checksDir, `${ids.indexOf(cell)}.json`);
  const compressionLeft = (rows: readonly CommitRow[]): boolean =>
    !!o.compression && o.compression.rounds > 0 && compressionDone(rows).size < o.compression.rounds;
  return {
    units: ids,
    arms: COMMIT_METHODS,
    conditions: COMMIT_STATES,
    columns: commitColumns,
    ourFolders: [ctx.dataDir, '/bg-engine-'],
    steps: (w) => commitSteps(w, { seed: design.seed, warmupRounds: design.warmup_rounds, formalRounds: design.rounds, cells: ids, smallest: smallest.id }),
    pendingAfterRounds: compressionLeft,
    async openSession(session, attempt, journal) {
      const tmpRoot = join(ctx.dataDir, 'tmp');
      mkdirSync(tmpRoot, { recursive: true });
      const runDir = mkdtempSync(join(tmpRoot, 'commit-engines-'));
      // The engines' stop and the folder's removal can be started from two places at once (the
      // signal handler's cleanup and the session's close): the folder goes only after the engines are down.
      let enginesStopping: Promise<void> = Promise.resolve();
      const removeRunDir = onCleanup(`commit engines folder ${runDir}`, async () => {
        await enginesStopping;
        const mounted = mountsUnder(runDir);
        if (mounted.length) throw new Error(`still mounted, not removed: ${mounted.join(', ')}`);
        rmSync(runDir, { recursive: true, force: true });
      });
      let engines: CommitEngine[] = [];
      let baseDirs = new Set<string>();
      const stopEngines = onCleanup('commit engines', () => {
        enginesStopping = (async () => {
          for (const e of engines) await e.stop();
        })();
        return enginesStopping;
      });
      const close = async (): Promise<void> => {
        await stopEngines();
        await removeRunDir();
      };
      try {
        engines = await startCommitEngines(ctx.dataDir, runDir, ctx.log);
        baseDirs = await importBase(ctx, engines);
      } catch (e) {
        await close();
        throw e;
      }
      const listings = new Map<string, Record<string, Record<string, string[]>>>();
      return {
        async visit(v) {
          const cell = o.cells.find((c) => c.id === v.unit)!;
          const engine = engines.find((e) => e.method === v.arm)!;
          const tag = `s${session}-${v.phase[0]}${v.round}-${ids.indexOf(cell.id)}-${v.arm}`;
          const listHere = v.phase === 'formal' && !existsSync(checkFile(cell.id));
          const startedAt = new Date().toISOString();
          const stepStart = Date.now();
          try {
            const obs = await runCommitWorkload(o.launcher, engine, BASE_IMAGE, workloadOf(cell), tag, timeoutMs, design.settle, ctx.signal);
            ctx.log(
              `session ${session} ${v.phase} round ${v.round} ${cell.id} ${v.arm}: ${obs.map((x) => `${x.state} ${x.ok ? `${((x.wallMs ?? 0) / 1000).toFixed(2)} s` : 'FAILED'}`).join(', ')}; workload ${((Date.now() - stepStart) / 1000).toFixed(1)} s`,
            );
            if (listHere) {
              const byState: Record<string, string[]> = {};
              if (obs.length === COMMIT_STATES.length && obs.every((x) => x.ok)) {
                for (const x of obs) {
                  const l = await topLayerListing({ socket: engine.socket }, x.image, runDir);
                  rmSync(join(l.layerTar, '..', '..'), { recursive: true, force: true });
                  byState[x.state] = l.lines;
                }
              }
              listings.set(cell.id, { ...(listings.get(cell.id) ?? {}), ...(Object.keys(byState).length ? { [v.arm]: byState } : {}) });
            }
            return COMMIT_STATES.map((state) =>
              commitRow(ctx.config.experiment.name, v, cell.values, state, obs.find((x) => x.state === state) ?? null, startedAt),
            );
          } finally {
            await removeWorkload(engine, tag);
          }
        },
        afterRound(step) {
          const listed = listings.get(step.unit);
          if (step.phase !== 'formal' || !listed) return;
          listings.delete(step.unit);
          const dir = join(o.listingsDir, step.unit.replace(/[^A-Za-z0-9=,._-]/g, '_'));
          mkdirSync(dir, { recursive: true });
          for (const [method, byState] of Object.entries(listed))
            for (const [state, lines] of Object.entries(byState)) writeFileSync(join(dir, `${method}-${state}.txt`), lines.join('\n') + '\n');
          // The initial commit lies on the base; the incremental one on the initial commit.
          const lowerDirs: Record<string, Set<string>> = {
            initial: baseDirs,
            incremental: new Set([...baseDirs, ...['naive', 'native'].flatMap((m) => [...listedDirectories(listed[m]?.['initial'] ?? [])])]),
          };
          const checks = COMMIT_STATES.map((state) => {
            const strip = (lines: string[] | undefined) => lines && withoutNoOpOpaqueMarkers(lines, lowerDirs[state]!);
            const a = strip(listed['naive']?.[state]);
            const b = strip(listed['native']?.[state]);
            const diff = a && b ? listingDifferences(a, b, ['naive', 'native']) : ['a commit failed: no listing to compare'];
            return { cell: step.unit, state, entries: a?.length ?? null, equal: diff.length === 0, differences: diff.slice(0, 50) };
          });
          writeFileSync(checkFile(step.unit), JSON.stringify(checks) + '\n');
        },
        async finish(last) {
          const rows = await journal.rows();
          if (!last || !compressionLeft(rows)) return;
          const native = engines.find((e) => e.method === 'native')!;
          await runCompression(
            ctx,
            o.launcher,
            native,
            BASE_IMAGE,
            o.compression!,
            (round, launches) => journal.append(compressionRows(ctx.config.experiment.name, session, attempt, round, launches)),
            runDir,
            timeoutMs,
            compressionDone(rows),
          );
        },
        close,
      };
    },
  };
}
