// The arm adapter of the restore sweep, the fourth experiment on the model:
// does restoring a gVisor checkpoint bring the app back sooner than starting
// it afresh, and how do both grow with the app's memory? Units are heap
// sizes: a session writes that many MiB of random bytes into the app's image
// (heap.bin, on the host, untimed) and checkpoints an app that has copied
// them into a tmpfs file (gvisor-checkpoint-app.sh), in its own folder. Arms,
// each timed to the same event, the app's state being back in a running
// sandbox: `restore` (runsc restore of that image, then a process in the
// restored sandbox finds the heap and prints the marker; gvisor-restore.sh
// with GVISOR_RESTORE_READY_CHECK) and `start` (runsc run of the same app,
// which copies its heap from its image, prints the marker and exits). The
// heap is copied, not generated: a start bound by /dev/urandom under ptrace
// (about 36 ms per MiB) measured the generator, not the start-up. Conditions:
// `cold` (page cache dropped first, untimed: both read their image from disk)
// and `warm`. Every launch runs after the settle.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { outcomeOf, type SampleRow } from '../db/sample-row.js';
import { runHook } from '../experiment/run-hook.js';
import type { LaunchingAdapterOptions } from '../experiment/adapter-options.js';
import type { AdapterVisit, ExperimentAdapter } from '../experiment/sample-experiment.js';
import { launchId } from '../experiment/session-plan.js';
import { settle } from '../experiment/settle.js';
import { launchColumns, settleColumns, visitColumns } from '../experiment/launch-columns.js';
import { makeMarker } from '../launch/marker.js';
import { EFFECT_ENV } from './effect-arm.js';
import { openRowFolder, sandboxScriptsDir, type RowFolder } from './row-folder.js';

const run = promisify(execFile);

export const SWEEP_ARMS = ['restore', 'start'] as const;
export const SWEEP_CONDITIONS = ['cold', 'warm'] as const;
const READY = 'APP-READY';

/** The unit id of a heap size, e.g. `heap-64mib`. */
export const heapUnit = (mib: number): string => `heap-${mib}mib`;

/** The app: copy its heap (heap.bin in its image, random bytes) into /tmp (a tmpfs inside the sandbox), then print `line`. */
const appScript = (line: string): string[] => ['/bin/sh', '-c', `cat /heap.bin > /tmp/heap && echo ${line}`];
/** Inside the restored sandbox: the app's heap is back. */
const HEAP_BACK = 'test -s /tmp/heap';

/** rootfsTar: the root the app runs in. */
export interface SweepOptions extends LaunchingAdapterOptions {
  heapsMib: readonly number[];
}

export function restoreSweepAdapter(o: SweepOptions): ExperimentAdapter {
  const sh = (f: string): string => join(sandboxScriptsDir(), f);
  const step = async (argv: string[], cwd: string): Promise<void> => {
    const r = await runHook(argv, EFFECT_ENV, cwd, o.timeoutMs);
    if (!r.ok) throw new Error(`${argv[0]}: ${r.reason}`);
  };
  return {
    units: o.heapsMib.map(heapUnit),
    // a unit's app is checkpointed once a session (beginUnit): its rounds run in one block
    unitSetup: true,
    arms: SWEEP_ARMS,
    conditions: SWEEP_CONDITIONS,
    ourFolders: ['/tmp/bg-fx-'],
    async openSession(session) {
      let open: { mib: number; folder: RowFolder } | null = null;
      const leave = async (): Promise<void> => {
        const f = open?.folder;
        open = null;
        if (f) await f.close();
      };
      const launch = async (v: AdapterVisit, state: string): Promise<SampleRow> => {
        const { folder } = open!;
        const id = launchId(v.session, v.attempt, v.unit, v.arm, state, v.phase, v.round);
        const marker = makeMarker(id);
        if (state === 'cold') await step([sh('drop-caches.sh')], folder.dir);
        if (v.arm === 'start')
          await step([sh('gvisor-bundle.sh'), join(folder.dir, 'rootfs'), join(folder.dir, 'start'), '--', ...appScript(marker)], folder.dir);
        const argv =
          v.arm === 'restore'
            ? [sh('gvisor-restore.sh'), folder.dir, join(folder.dir, 'app', 'bundle'), join(folder.dir, 'app', 'image'), marker]
            : [
                '/bin/sh',
                '-c',
                '"$1" "$2" run --bundle "$3" "$4"; rc=$?; "$1" "$2" delete -force "$4" 2>/dev/null; exit $rc',
                'start',
                sh('runsc.sh'),
                folder.dir,
                join(folder.dir, 'start'),
                `start-${process.pid}`,
              ];
        const settled = await settle(o.settle, o.signal);
        const startedAt = new Date().toISOString();
        const env = v.arm === 'restore' ? { ...EFFECT_ENV, GVISOR_RESTORE_READY_CHECK: HEAP_BACK } : EFFECT_ENV;
        const r = await o.launcher.launch({ launchId: id, argv, env, cwd: folder.dir, marker, timeoutMs: o.timeoutMs, tailBytes: 4096 });
        return {
          ...visitColumns(o.experiment, v, state),
          ...launchColumns(r),
          ...settleColumns(settled),
          ...outcomeOf(r.state === 'ok' && r.readyMs !== null, r.state === 'ok' ? 'no marker line' : (r.failureReason ?? r.state)),
          started_at: startedAt,
        };
      };
      return {
        async beginUnit(unit) {
          const mib = o.heapsMib.find((m) => heapUnit(m) === unit)!;
          const folder = openRowFolder(unit);
          open = { mib, folder };
          mkdirSync(join(folder.dir, 'rootfs'));
          await run('tar', ['-xf', o.rootfsTar, '-C', join(folder.dir, 'rootfs')], { signal: o.signal });
          // the heap, random so that a checkpoint cannot shrink it, in the image both arms read it from
          await run('sh', ['-c', 'head -c "$1" /dev/urandom > "$2"', 'heap', String(mib * 1048576), join(folder.dir, 'rootfs', 'heap.bin')], {
            signal: o.signal,
          });
          const timeoutS = String(Math.ceil(o.timeoutMs / 1000));
          const app = ['/bin/sh', '-c', `cat /heap.bin > /tmp/heap && echo ${READY} && while :; do sleep 1; done`];
          await step([sh('gvisor-checkpoint-app.sh'), folder.dir, 'app', join(folder.dir, 'rootfs'), READY, timeoutS, '--', ...app], folder.dir);
          o.log(`session ${session} ${unit}: checkpointed in ${folder.dir}`);
        },
        endUnit: leave,
        visit: async (v) => {
          const rows: SampleRow[] = [];
          for (const state of SWEEP_CONDITIONS) rows.push(await launch(v, state));
          return rows;
        },
        close: leave,
      };
    },
  };
}
