// Undo stack for everything a run changes outside the store: mounts,
// containers, daemons, proxies, kernel settings. Each effect registers its undo
// right after it succeeds; undos run in reverse order on normal exit, on error
// and on SIGINT/SIGTERM (the same signal again exits at once; another one does not
// cut the undo short). An undo that fails is reported, the rest still run.
// An undo runs once: its owner calling it while the signal path runs the stack
// (a service stopped by the failing stage's own teardown) shares that one run,
// and the signal path waits for every undo still running before it exits, so
// a daemon's folders are never left mounted by an exit in mid-undo.

import { Interrupted } from '../errors.js';
import { writeErr } from './std-write.js';
export type Undo = () => Promise<void> | void;

interface Entry {
  label: string;
  undo: Undo;
  /** Set when the undo has started; the one run every caller awaits. */
  run?: Promise<void>;
}

const stack: Entry[] = [];
/** Undos started and not yet settled, whoever started them. */
const inFlight = new Set<Promise<void>>();
let signalsInstalled = false;
let running: Promise<string[]> | null = null;

function start(entry: Entry): Promise<void> {
  if (!entry.run) {
    const run = (async () => entry.undo())();
    entry.run = run;
    inFlight.add(run);
    run.then(
      () => inFlight.delete(run),
      () => inFlight.delete(run),
    );
  }
  return entry.run;
}

/** Registers an undo; returns a function that runs it now (once) and removes it. */
export function onCleanup(label: string, undo: Undo): () => Promise<void> {
  const entry: Entry = { label, undo };
  stack.push(entry);
  installSignalHandlers();
  return async () => {
    const i = stack.indexOf(entry);
    if (i >= 0) stack.splice(i, 1);
    else if (!entry.run) return;
    await start(entry);
  };
}

/**
 * Runs every registered undo, newest first, then waits for undos their owners
 * started and that are still running. Returns messages for undos that failed
 * here (an owner's own undo reports its failure to that owner).
 */
export function runCleanup(): Promise<string[]> {
  if (running) return running;
  running = (async () => {
    const failures: string[] = [];
    while (stack.length || inFlight.size) {
      const entry = stack.pop();
      if (!entry) {
        await Promise.allSettled([...inFlight]);
        continue;
      }
      try {
        await start(entry);
      } catch (e) {
        failures.push(`cleanup of ${entry.label} failed: ${(e as Error).message}`);
      }
    }
    running = null;
    return failures;
  })();
  return running;
}

export function pendingCleanups(): string[] {
  return stack.map((e) => e.label);
}

/** 128 + signal number, as shells report it. */
const EXIT_CODE = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

const abort = new AbortController();
/** Aborted on the first SIGINT/SIGTERM. */
export const shutdownSignal: AbortSignal = abort.signal;

/** The signal that started the shutdown. */
let firstSignal: keyof typeof EXIT_CODE | null = null;

function installSignalHandlers(): void {
  if (signalsInstalled) return;
  signalsInstalled = true;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(sig, () => {
      if (abort.signal.aborted) {
        // The same signal again while undoing: the user insists; say what may be left and go.
        // Another signal is not insistence: a Ctrl-C reaches a whole process group, and a
        // parent that stops its children on SIGINT (a test runner, a shell script) sends
        // each a SIGTERM too, in the same instant; going then would leave what the undo was stopping.
        if (sig !== firstSignal) {
          writeErr(`${sig} while undoing after ${firstSignal}: the undo goes on (${firstSignal} again exits at once)\n`);
          return;
        }
        writeErr(`\n${sig} again: exiting now; still to undo: ${pendingCleanups().join(', ') || 'nothing'}\n`);
        process.exit(EXIT_CODE[sig]);
      }
      firstSignal = sig;
      // The reader of our output may be gone with the same Ctrl-C (`pipeline run | tee log`, a test
      // runner's worker): a write to its pipe then fails with EPIPE, and an unheard stream error
      // would end the process in mid-undo. What the undo path writes is lost, not the undo.
      for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
      writeErr(`\n${sig}: stopping, undoing mounts, containers and services...\n`);
      abort.abort(new Interrupted(sig));
      void runCleanup().then((failures) => {
        for (const f of failures) writeErr(f + '\n');
        process.exit(EXIT_CODE[sig]);
      });
    });
  }
}

/** Installs the handlers even before the first undo is registered. */
export function installShutdownHandlers(): void {
  installSignalHandlers();
}
