// The host canary of a session (design.canary): before the session's first
// launch, each piece of harness/launch/canary.c runs CANARY_REPEATS times,
// timed by its own launch helper exactly like a measured launch, and every
// launch is journaled as a phase 'canary' row. The host's counters
// (process/host-counters.ts) are read at its start and at the session's end.
// A session that an earlier attempt already gave its canary does not repeat it.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SessionCanary } from '../contract/exchange-files.js';
import type { StageContext } from '../contract/stage.js';
import type { SampleRow } from '../db/sample-row.js';
import { UserError } from '../errors.js';
import { defaultHelperPath, Launcher } from '../launch/launcher.js';
import { makeMarker } from '../launch/marker.js';
import { hostCounterDelta, readHostCounters } from '../process/host-counters.js';
import { hostName } from '../process/host-name.js';
import { canaryArgs, canaryJournaled, canaryPlan, canaryRow, CANARY_TIMEOUT_MS, type CanaryPiece } from './canary-plan.js';
import { throwIfAborted } from './run-rounds.js';

export interface CanaryJournal {
  append(row: SampleRow): Promise<void>;
  rows(): Promise<SampleRow[]>;
}

export interface CanaryOptions {
  /** design.canary (the schema defaults it to true). */
  on: boolean | undefined;
  experiment: string;
  session: number;
  attempt: number;
  /** The data folder: the fs piece's folder and every piece's working directory. */
  dataDir: string;
  signal: AbortSignal;
  journal: CanaryJournal;
  log: (line: string) => void;
}

/** harness/launch/build/canary, beside the launch helper. */
export function canaryProgramPath(): string {
  return join(dirname(defaultHelperPath()), 'canary');
}

/**
 * Runs the session's canary (unless off); the returned function, called at the
 * session's end, gives what goes into its record ({} when off).
 */
export async function runHostCanary(o: CanaryOptions): Promise<() => { canary?: SessionCanary }> {
  if (o.on === false) return () => ({});
  const program = canaryProgramPath();
  if (!existsSync(program))
    throw new UserError(`host canary ${program} is missing`, { key: 'design.canary' }, "run 'npm run build', or set design.canary: false");
  const start = readHostCounters();
  const t0 = performance.now();
  let launches = 0;
  const failures: string[] = [];
  let skipped: string | null = null;
  if (canaryJournaled(await o.journal.rows(), o.session)) skipped = 'an earlier attempt of this session journaled its canary';
  else {
    const launcher = await Launcher.start();
    try {
      let previous: CanaryPiece | null = null;
      for (const l of canaryPlan(o.session, o.attempt)) {
        const startedAt = new Date().toISOString();
        const marker = makeMarker(l.launchId);
        const result = await launcher.launch({
          launchId: l.launchId,
          argv: [program, ...canaryArgs(l.piece, marker, o.dataDir)],
          env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
          cwd: o.dataDir,
          marker,
          timeoutMs: CANARY_TIMEOUT_MS,
          tailBytes: 4096,
        });
        // A launch cut short by a signal is not a measurement.
        throwIfAborted(o.signal);
        const row = canaryRow(l, result, { experiment: o.experiment, session: o.session, host: hostName(), startedAt, previous });
        await o.journal.append(row);
        launches++;
        if (row['ok'] !== true) failures.push(`${l.piece}: ${String(row['failure_reason'])}`);
        previous = l.piece;
      }
    } finally {
      await launcher.close();
    }
  }
  const wallMs = performance.now() - t0;
  o.log(
    `session ${o.session}: host canary ${skipped ? `skipped (${skipped})` : `${launches} launches in ${(wallMs / 1000).toFixed(2)} s${failures.length ? `, ${failures.length} failed (first: ${failures[0]})` : ''}`}`,
  );
  return () => ({ canary: { launches, wallMs, skipped, counters: hostCounterDelta(start, readHostCounters()) } });
}

/** runHostCanary with a sampling stage's settings: design.canary, the experiment's name, the data folder, its signal and log. */
export function sessionCanary(ctx: StageContext, session: number, attempt: number, journal: CanaryJournal): Promise<() => { canary?: SessionCanary }> {
  const on = ctx.config.design.canary;
  return runHostCanary({ on, experiment: ctx.config.experiment.name, session, attempt, dataDir: ctx.dataDir, signal: ctx.signal, journal, log: ctx.log });
}
