// The executor seam: where a stage's sessions run, chosen here and only here
// from executor.kind. Both implementations take the same batch (the
// experiment driver's SessionBatch: sessions, their arms, the journal) and
// leave the same result behind (rows merged into the stage's journal, one
// record per finished session), so the driver, the adaptive and confirm
// sessions and every arm adapter work the same on either.
//   local: the sessions run in this process, one after the other.
//   slurm: one exclusive job per session (slurm-sessions.ts), each running
//          `pipeline session-job SPEC` on its node (session-job.ts).
// A third (Kubernetes, docs/SCALE.md) is one more file beside slurm-sessions.ts,
// one more entry in SESSION_EXECUTORS and its kind in the executor schema's
// enum (a test keeps the enum equal to this registry); the CLI's --executor
// check and the kinds it names come from here.
import { inProcessSessions, installSessionExecutors, type SessionExecutor } from '../experiment/session-executor-port.js';

export type { SessionBatch, SessionExecutor } from '../experiment/session-executor-port.js';

export const localSessions: SessionExecutor = inProcessSessions;

export const slurmSessions: SessionExecutor = {
  kind: 'slurm',
  run: async (b) => {
    // imported when a batch goes to Slurm, so a local or no-op run does not load the Slurm client
    const { runSessionsOnSlurm } = await import('./slurm-sessions.js');
    await runSessionsOnSlurm(b.ctx, b.journal, b.sessions, b.attempt, { priorRows: true, recordsDir: b.recordsDir, ...b.options });
  },
};

/** The one registry of executors: executor.kind -> implementation. */
const SESSION_EXECUTORS = { local: localSessions, slurm: slurmSessions } as const satisfies Record<string, SessionExecutor>;

export type ExecutorKind = keyof typeof SESSION_EXECUTORS;

/** Every executor.kind, in registry order. */
export const EXECUTOR_KINDS = Object.keys(SESSION_EXECUTORS) as ExecutorKind[];

export const isExecutorKind = (kind: string): kind is ExecutorKind => (EXECUTOR_KINDS as string[]).includes(kind);

/** The one place an executor is chosen. */
export function sessionExecutorFor(kind: string): SessionExecutor | null {
  return isExecutorKind(kind) ? SESSION_EXECUTORS[kind] : null;
}

installSessionExecutors(sessionExecutorFor);
