// The executor seam: where a stage's sessions run, chosen here and only here
// from executor.kind. Both implementations take the same batch (the
// experiment driver's SessionBatch: sessions, their arms, the journal) and
// leave the same result behind (rows merged into the stage's journal, one
// record per finished session), so the driver, the adaptive and confirm
// sessions and every arm adapter work the same on either.
//   local: the sessions run in this process, one after the other.
//   slurm: one exclusive job per session (slurm-sessions.ts), each running
//          `pipeline session-job SPEC` on its node (session-job.ts).
// A third (Kubernetes, docs/SCALE.md) is one more file beside slurm-sessions.ts
// and one more line in sessionExecutorFor.
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

/** The one place an executor is chosen. */
export function sessionExecutorFor(kind: string): SessionExecutor | null {
  if (kind === 'local') return localSessions;
  if (kind === 'slurm') return slurmSessions;
  return null;
}

installSessionExecutors(sessionExecutorFor);
