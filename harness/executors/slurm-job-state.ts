// Pure: Slurm's job state words mapped onto the executor's five states.
import type { SlurmJobState } from './slurm-job-types.js';

const PENDING = new Set([
  'PENDING',
  'CONFIGURING',
  'REQUEUED',
  'REQUEUE_FED',
  'REQUEUE_HOLD',
  'RESV_DEL_HOLD',
  'SPECIAL_EXIT',
  'STAGE_OUT',
  'RESIZING',
  'SIGNALING',
]);
const RUNNING = new Set(['RUNNING', 'COMPLETING', 'SUSPENDED', 'STOPPED']);
const DONE = new Set(['COMPLETED']);
const CANCELLED = new Set(['CANCELLED', 'REVOKED']);
// FAILED, TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE, PREEMPTED and anything unknown end as failed.

/** Maps e.g. "CANCELLED" or "CANCELLED+" or "CANCELLED by 0" to cancelled. */
export function jobStateOf(slurmState: string): SlurmJobState {
  const word = slurmState.trim().split(/[\s+]/)[0]!.toUpperCase();
  if (PENDING.has(word)) return 'pending';
  if (RUNNING.has(word)) return 'running';
  if (DONE.has(word)) return 'done';
  if (CANCELLED.has(word)) return 'cancelled';
  return 'failed';
}

export const isFinal = (s: SlurmJobState): boolean => s === 'done' || s === 'failed' || s === 'cancelled';
