// Progress of a sampling session: a live line on a terminal, one plain line
// per round otherwise. The ETA is pure arithmetic on launches done so far.

export interface ProgressState {
  cohort: string;
  phase: string;
  round: number;
  rounds: number;
  launchesDone: number;
  launchesTotal: number;
  failures: number;
  elapsedMs: number;
}

export function formatProgress(p: ProgressState): string {
  const etaMs = p.launchesDone > 0 ? (p.elapsedMs / p.launchesDone) * (p.launchesTotal - p.launchesDone) : NaN;
  const eta = Number.isFinite(etaMs) ? formatDuration(etaMs) : '?';
  return `${p.cohort} ${p.phase} round ${p.round}/${p.rounds} · launches ${p.launchesDone}/${p.launchesTotal} · failures ${p.failures} · ETA ${eta}`;
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
