// Progress of a sampling session: a live line on a terminal, one plain line
// per round otherwise. The ETA is the whole run's remaining time (every
// session still planned, run-eta.ts), the session's own in brackets.
import type { RunEstimate } from './run-eta.js';

export interface ProgressState {
  cohort: string;
  phase: string;
  round: number;
  rounds: number;
  launchesDone: number;
  launchesTotal: number;
  failures: number;
  eta: RunEstimate;
}

export function formatProgress(p: ProgressState): string {
  return `${p.cohort} ${p.phase} round ${p.round}/${p.rounds} · launches ${p.launchesDone}/${p.launchesTotal} · failures ${p.failures} · ${formatEta(p.eta)}`;
}

/** `ETA 25m01s (session 3m01s)`; `≤` when it counts a session that may not run; `?` before a launch was timed. */
export function formatEta(e: RunEstimate): string {
  if (!Number.isFinite(e.runMs) || !Number.isFinite(e.sessionMs)) return 'ETA ?';
  return `ETA ${e.upperBound ? '≤' : ''}${formatDuration(e.runMs)} (session ${formatDuration(e.sessionMs)})`;
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
