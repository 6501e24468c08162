// One launch of `pipeline measure`, as data: what the summary, the exports and
// the record (a sample row) are made of.
import type { LaunchResult } from '../launch/launch-types.js';

export type MeasurePhase = 'warmup' | 'formal';

export interface Observation {
  /** Index of the command in the command list. */
  command: number;
  phase: MeasurePhase;
  /** From 1 within its phase. */
  round: number;
  orderInRound: number;
  launchId: string;
  /** With --concurrency N: which of the round's N launches of the command, released together (0..N−1); absent otherwise. */
  copy?: number;
  /** Exited with code 0 (and, with a marker or --ready first-line, Ready was seen). */
  ok: boolean;
  readyMs: number | null;
  completionMs: number | null;
  exitCode: number | null;
  signal: string | null;
  failureReason: string | null;
  userCpuMs: number | null;
  sysCpuMs: number | null;
  maxRssKb: number | null;
  startedAt: string;
}

/** Pure: the observation of a finished launch. */
export function observationOf(at: Pick<Observation, 'command' | 'phase' | 'round' | 'orderInRound' | 'launchId' | 'startedAt'>, r: LaunchResult): Observation {
  const exitOk = r.state === 'ok' && r.exitCode === 0;
  const reason = r.failureReason ?? (exitOk ? null : r.exitCode !== null ? `exit code ${r.exitCode}${tailNote(r.stderrTail)}` : `launch ${r.state}`);
  return {
    ...at,
    ok: exitOk,
    readyMs: r.readyMs,
    completionMs: r.completionMs,
    exitCode: r.exitCode,
    signal: r.signal,
    failureReason: exitOk ? null : reason,
    userCpuMs: r.userCpuMs,
    sysCpuMs: r.sysCpuMs,
    maxRssKb: r.maxRssKb,
  };
}

function tailNote(stderr: string): string {
  const last = stderr.trim().split('\n').pop()?.trim();
  return last ? `; stderr: ${last.slice(0, 200)}` : '';
}
