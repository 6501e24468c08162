// Where a stage's sessions run: the port the experiment driver
// (sample-experiment.ts) hands its sessions to. The implementations live one
// layer up, in harness/executors/session-executor.ts (local: here, one after
// the other; slurm: one job each), which installs its chooser when the
// engine loads it; no stage picks or imports an executor.
import type { StageContext } from '../contract/stage.js';
import type { SampleJournal } from '../db/sample-journal.js';
import { UserError } from '../errors.js';
import type { SessionWork } from './session-plan.js';

/** How the sessions a run hands an executor run: their arms per unit (added sessions), and whether the last is the run's last. */
export interface RemoteOptions {
  arms?: Readonly<Record<string, readonly string[]>>;
  last?: boolean;
}

export interface SessionBatch {
  ctx: StageContext;
  /** The stage's journal: a remote session's rows are merged into it. */
  journal: SampleJournal;
  sessions: readonly SessionWork[];
  attempt: number;
  /** Where each finished session's record goes (S<session>.a<attempt>.json). */
  recordsDir: string;
  options: RemoteOptions;
  /** Runs one session in this process (journal, record and progress included): what the local executor does with each. */
  here: (w: SessionWork, o: RemoteOptions) => Promise<void>;
}

export interface SessionExecutor {
  readonly kind: string;
  /** Runs the batch's sessions; throws, naming them, when some did not complete (their complete rounds are kept). */
  run(batch: SessionBatch): Promise<void>;
}

/** The one executor every build has: the sessions run here, one after the other. */
export const inProcessSessions: SessionExecutor = {
  kind: 'local',
  run: async (b) => {
    for (const [i, w] of b.sessions.entries()) {
      const { last, ...rest } = b.options;
      await b.here(w, { ...rest, last: (last ?? false) && i === b.sessions.length - 1 });
    }
  },
};

let chooser: ((kind: string) => SessionExecutor | null) | null = null;

/** Installs the executors' chooser (executors/session-executor.ts does, when it loads). */
export function installSessionExecutors(choose: (kind: string) => SessionExecutor | null): void {
  chooser = choose;
}

/** The executor of `executor.kind`; local when nothing is installed (a stage run outside the engine, in a test). */
export function sessionExecutorOf(ctx: StageContext): SessionExecutor {
  const kind = ctx.config.executor?.kind ?? 'local';
  const chosen = chooser?.(kind) ?? (kind === 'local' ? inProcessSessions : null);
  if (!chosen)
    throw new UserError(
      `stage ${ctx.id} (${ctx.kind}) has no session executor for executor.kind ${kind}`,
      { file: ctx.pipelineFile, key: 'executor.kind' },
      'run it with --executor local',
    );
  return chosen;
}
