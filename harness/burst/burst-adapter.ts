// The arm adapter of burst-startup: start-up under concurrency on the one
// experiment model. An arm is a path at a level N (burst-arms.ts); a visit is
// one closed-loop burst: the launch helper releases N launches together and
// times each from that release (Launcher.burst), and the visit's rows are its
// N launches (one per launch, `burst_slot` 0..N−1), each with its Ready and
// Completion, failures included. An open-loop arm (`<path>-r<λ>`) visits with
// a train of `open_loop.count` launches, the helper releasing one every 1/λ s
// whether or not the earlier ones are done, each timed from its own release
// (`release_offset_ms` after the first; `arrival_rate_per_s` λ). The unit is one small command (busybox's
// shell printing the launch's marker); the condition is `warm`: the root is
// unpacked and in the page cache, the Docker engine holds the image.
//
// Paths, each over the same pinned root:
// - `crun`: harness/paths/oci-run.sh, a fresh overlay per launch over one
//   read-only root unpacked once a session (N launches share the lower
//   folder, as N containers of one image share its unpacked layers);
// - `runsc`: harness/paths/gvisor-run.sh, the same root and overlays, gVisor
//   (ptrace platform, no network);
// - `docker`: `docker run --rm --network none` on the private engine, of the
//   root imported once a session (`docker import`);
// - `lazy`: crun as `crun`, over the root read on demand: the root's erofs
//   image (prepared for the file server `cache`) through an rclone mount of
//   its URL (harness/paths/lazy-mount.sh). Every launch of a burst (or a
//   train) reads one mount, made fresh just before the burst is released and
//   undone after it: as a node's lazy snapshotter mounts an image once and
//   every container of that image reads through it, so the image's first
//   reads are the burst's, fetched once and shared by its N launches (N mounts
//   would fetch the same bytes N times, which no deployment does; a mount
//   kept across bursts would leave only the first burst of a session to read
//   on demand). The mount is made before the settle and is not in any
//   launch's time, as a snapshotter mounts at pull, before containers start.
// Before the first burst of a session, one launch of each path runs untimed
// while MemAvailable is polled (memory-footprint.ts); a level whose burst
// would not fit in half of what is available is refused with the figure.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { onCleanup } from '../process/cleanup.js';
import { col, type ColumnValues } from '../db/sample-columns.js';
import { outcomeOf, type SampleRow } from '../db/sample-row.js';
import { CheckFailed, UserError } from '../errors.js';
import type { LaunchingAdapterOptions } from '../experiment/adapter-options.js';
import type { AdapterVisit, ExperimentAdapter } from '../experiment/sample-experiment.js';
import { settle } from '../experiment/settle.js';
import { launchColumns, settleColumns, visitColumns } from '../experiment/launch-columns.js';
import type { LaunchRequest, LaunchResult } from '../launch/launch-types.js';
import { makeMarker } from '../launch/marker.js';
import { projectRoot } from '../process/project-root.js';
import { EFFECT_ENV } from '../sandbox/effect-arm.js';
import { openRowFolder, type RowFolder } from '../sandbox/row-folder.js';
import { burstArmOf, burstArms, openArmOf } from './burst-arms.js';
import { burstMemoryProblem, memAvailableKb, peakDropKb } from './memory-footprint.js';

const run = promisify(execFile);

export const BURST_PATHS = ['crun', 'runsc', 'docker', 'lazy'] as const;
export type BurstRuntime = (typeof BURST_PATHS)[number];
/** A path: a runtime, or a runtime under a name of its own (`crun-twin`: crun again, for an A/A of two names of one path). */
export type BurstPath = string;

/** The runtime a path name starts with; null for none. */
export function runtimeOf(path: string): BurstRuntime | null {
  const m = /^(crun|runsc|docker|lazy)(-[a-z0-9]+)*$/.exec(path);
  return m ? (m[1] as BurstRuntime) : null;
}
/** The harness scripts the given paths run, as `{harness}/<path>` (pipeline doctor -f lists the tools they use); the docker path runs the engine's own CLI. */
export function burstScriptsOf(paths: readonly string[]): string[] {
  const of: Record<BurstRuntime, string[]> = {
    crun: ['paths/oci-run.sh'],
    runsc: ['paths/gvisor-run.sh'],
    docker: [],
    lazy: ['paths/lazy-mount.sh', 'paths/oci-run.sh', 'paths/cleanup-pair.sh'],
  };
  const runtimes = paths.map(runtimeOf).filter((r): r is BurstRuntime => r !== null);
  return [...new Set(runtimes.flatMap((r) => of[r]))].map((f) => `{harness}/${f}`);
}
export const BURST_CONDITION = 'warm';
export const BURST_UNIT = 'shell';

export const burstColumns = [
  col('burst_level', 'integer', 'INTEGER', { minimum: 1 }),
  col('burst_slot', 'integer', 'INTEGER', { minimum: 0 }),
  col('spawn_offset_ms', 'number', 'DOUBLE', { minimum: 0 }),
  col('arrival_rate_per_s', 'number', 'DOUBLE', { minimum: 0 }),
  col('release_offset_ms', 'number', 'DOUBLE', { minimum: 0 }),
] as const;
export type BurstColumns = ColumnValues<(typeof burstColumns)[number]>;

/** rootfsTar: the root every path starts from. */
export interface BurstOptions extends LaunchingAdapterOptions {
  paths: readonly BurstPath[];
  levels: readonly number[];
  /** Open-loop arms: launches per visit and the arrival rates (launches per second); null: closed loop only. */
  openLoop: { count: number; ratesPerS: readonly number[] } | null;
  /** Where each session's measured footprints go (memory-s<N>.json). */
  outputDir: string;
  /** The root's erofs image as the file server `cache` serves it (images.json of prepare); null: no prepare stage. */
  erofsFile: string | null;
}

/** The file server the lazy path reads from. */
export const LAZY_SERVICE = 'cache';

/** Checks `with.paths`: known path names, each once. */
export function checkBurstPaths(paths: unknown, at: { file: string; key: string }): BurstPath[] {
  if (!Array.isArray(paths) || !paths.length || paths.some((p) => typeof p !== 'string' || runtimeOf(p) === null) || new Set(paths).size !== paths.length)
    throw new UserError(
      `paths must be distinct names, each ${BURST_PATHS.join(', ')} or one of them with a suffix (crun-twin)`,
      at,
      `e.g. paths: [${BURST_PATHS.join(', ')}]`,
    );
  return paths as BurstPath[];
}

export function burstAdapter(o: BurstOptions): ExperimentAdapter<BurstColumns> {
  const script = (f: string): string => join(projectRoot(), 'harness', 'paths', f);
  const command = (marker: string): string[] => ['/bin/sh', '-c', `echo ${marker}`];
  return {
    units: [BURST_UNIT],
    arms: burstArms(o.paths, o.levels, o.openLoop?.ratesPerS ?? []),
    conditions: [BURST_CONDITION],
    columns: burstColumns,
    services: o.paths.some((p) => runtimeOf(p) === 'docker' || runtimeOf(p) === 'lazy'),
    ourFolders: ['/tmp/bg-fx-'],
    launchesPerVisit: (arm) => burstArmOf(arm)?.level ?? (openArmOf(arm) ? o.openLoop!.count : 1),
    async openSession(session, attempt, _journal, setup) {
      const folder: RowFolder = openRowFolder(`burst-s${session}`);
      const rootfs = join(folder.dir, 'rootfs');
      const image = `benchgraph/burst-root:s${session}`;
      let docker: { cli: string; host: string } | null = null;
      let lazyUrl: string | null = null;
      let bursts = 0;
      try {
        if (o.paths.some((p) => runtimeOf(p) === 'lazy')) {
          const cache = setup.services.byId[LAZY_SERVICE];
          if (!cache?.values['url'] || !o.erofsFile)
            throw new CheckFailed('the lazy path needs the root as an erofs image on a file server', [
              `add services: { ${LAZY_SERVICE}: { kind: nginx-files, data_from: prepare } } and a stage { id: prepare, uses: prepare, needs: [pin] } that the sample stage needs`,
            ]);
          lazyUrl = cache.values['url'] + '/';
        }
        mkdirSync(rootfs);
        await run('tar', ['-xf', o.rootfsTar, '-C', rootfs], { signal: o.signal });
        if (o.paths.some((p) => runtimeOf(p) === 'docker')) {
          const engine = setup.services.byId['engine'];
          if (!engine?.values['docker'] || !engine.values['host'])
            throw new CheckFailed('the docker path needs the private Docker engine', ['add services: { engine: { kind: docker-engine } } to the pipeline']);
          docker = { cli: engine.values['docker'], host: engine.values['host'] };
          await run(docker.cli, ['-H', docker.host, 'import', o.rootfsTar, image], { signal: o.signal });
        }
      } catch (e) {
        await folder.close();
        throw e;
      }
      const workspaces: string[] = [];
      // The lazy path's mounts: one per burst, fresh, undone after it (and on exit, error or signal).
      let mounts = 0;
      const mountLazy = async (): Promise<{ lower: string; undo: () => Promise<void> }> => {
        const dir = join(folder.dir, `m-${++mounts}`);
        const undo = onCleanup(`lazy mount ${dir}`, async () => {
          await run(script('cleanup-pair.sh'), [dir, '--remove'], { timeout: 120_000 });
        });
        try {
          await run(script('lazy-mount.sh'), [dir, lazyUrl!, o.erofsFile!], { signal: o.signal, timeout: 60_000 });
        } catch (e) {
          await undo().catch(() => undefined);
          const why = (e as { stderr?: string }).stderr?.trim().split('\n').pop() ?? String(e);
          throw new CheckFailed(`the lazy path could not mount ${o.erofsFile} from ${lazyUrl}`, [why]);
        }
        return { lower: join(dir, 'lazy', 'lower'), undo };
      };
      const unmount = async (m: { undo: () => Promise<void> } | null): Promise<void> => {
        if (!m) return;
        try {
          await m.undo();
        } catch (e) {
          const why = (e as { stderr?: string }).stderr?.trim() || String(e);
          throw new CheckFailed('the lazy path’s mount of a burst could not be undone', [why]);
        }
      };
      const argvOf = (path: BurstPath, ws: string, id: string, marker: string, lower: string | null): string[] => {
        const runtime = runtimeOf(path);
        if (runtime === 'crun') return [script('oci-run.sh'), rootfs, ws, '--', ...command(marker)];
        if (runtime === 'lazy') return [script('oci-run.sh'), lower!, ws, '--', ...command(marker)];
        if (runtime === 'runsc') return [script('gvisor-run.sh'), rootfs, ws, '--', ...command(marker)];
        return [
          docker!.cli,
          '-H',
          docker!.host,
          'run',
          '--rm',
          '--network',
          'none',
          '--name',
          `bg-${id.replace(/[^A-Za-z0-9_.-]/g, '-')}`,
          image,
          ...command(marker),
        ];
      };
      const requestOf = (path: BurstPath, id: string, lower: string | null): LaunchRequest => {
        const marker = makeMarker(id);
        const ws = join(folder.dir, `w-${++bursts}`);
        if (runtimeOf(path) !== 'docker') workspaces.push(ws);
        return { launchId: id, argv: argvOf(path, ws, id, marker, lower), env: EFFECT_ENV, cwd: folder.dir, marker, timeoutMs: o.timeoutMs, tailBytes: 2048 };
      };
      const clearWorkspaces = (): void => {
        for (const ws of workspaces.splice(0)) rmSync(ws, { recursive: true, force: true });
      };
      // Each path's footprint, measured once a session before its first burst, checked against its largest level.
      const footprintKb = new Map<BurstPath, number>();
      for (const path of o.paths) {
        let mount: Awaited<ReturnType<typeof mountLazy>> | null = null;
        let probed: { result: LaunchResult; dropKb: number };
        try {
          mount = runtimeOf(path) === 'lazy' ? await mountLazy() : null;
          const req = requestOf(path, `probe.${path}.S${session}.a${attempt}`, mount?.lower ?? null);
          probed = await peakDropKb(() => o.launcher.launch(req));
          clearWorkspaces();
          await unmount(mount);
        } catch (e) {
          clearWorkspaces();
          await unmount(mount).catch(() => undefined);
          await folder.close();
          throw e;
        }
        const { result, dropKb } = probed;
        if (result.state !== 'ok') {
          await folder.close();
          throw new CheckFailed(`the ${path} path failed before sampling`, [result.failureReason ?? result.state, result.stderrTail.trim().slice(-300)]);
        }
        const kb = Math.max(dropKb, result.maxRssKb ?? 0);
        footprintKb.set(path, kb);
        const available = memAvailableKb();
        const largest = Math.max(...o.levels, o.openLoop?.count ?? 1); // an open loop has at most its count in flight
        const problem = available === null ? null : burstMemoryProblem(path, largest, kb, available);
        if (problem) {
          await folder.close();
          throw new CheckFailed(`burst refused before it started: ${problem}`, ['lower the largest of with.levels, or stop what holds the memory']);
        }
      }
      writeFileSync(
        join(o.outputDir, `memory-s${session}.json`),
        JSON.stringify({ session, availableKb: memAvailableKb(), footprintKb: Object.fromEntries(footprintKb) }, null, 2) + '\n',
      );
      o.log(`session ${session}: bursts in ${folder.dir}`);
      o.log(`session ${session}: one launch took ${o.paths.map((p) => `${p} ${Math.round(footprintKb.get(p)! / 1024)} MiB`).join(', ')} of memory`);
      return {
        async visit(v: AdapterVisit): Promise<SampleRow<BurstColumns>[]> {
          const closed = burstArmOf(v.arm);
          const open = openArmOf(v.arm);
          const arm = closed ?? (open && o.openLoop ? { path: open.path, level: o.openLoop.count } : null);
          if (!arm) throw new Error(`bug: ${v.arm} is not a burst arm`);
          const path = arm.path as BurstPath;
          const place = visitColumns(o.experiment, v, BURST_CONDITION);
          const mount = runtimeOf(path) === 'lazy' ? await mountLazy() : null;
          try {
            const reqs = Array.from({ length: arm.level }, (_, k) => requestOf(path, `${place.launch_id}.k${k}`, mount?.lower ?? null));
            const settled = await settle(o.settle, o.signal);
            const startedAt = new Date().toISOString();
            const results = await o.launcher.burst(reqs, open ? { intervalMs: 1000 / open.ratePerS } : {});
            return results.map((r, k) => ({
              ...place,
              launch_id: r.launchId,
              ...launchColumns(r),
              ...settleColumns(settled),
              ...outcomeOf(r.state === 'ok' && r.readyMs !== null, r.state === 'ok' ? 'no marker line' : (r.failureReason ?? r.state)),
              started_at: startedAt,
              burst_level: arm.level,
              burst_slot: k,
              spawn_offset_ms: r.spawnOffsetMs,
              arrival_rate_per_s: open ? open.ratePerS : null,
              release_offset_ms: r.releaseOffsetMs,
            }));
          } finally {
            clearWorkspaces();
            await unmount(mount);
          }
        },
        close: () => folder.close(),
      };
    },
  };
}
