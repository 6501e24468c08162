// Pure: the live progress line of `pipeline measure` on a terminal, with an
// ETA from the launches done so far.
import type { MeasureProgress } from './run-measurement.js';

export function formatMeasureProgress(p: MeasureProgress): string {
  const total = p.launchesTotal;
  const etaMs = total !== null && p.launchesDone > 0 ? (p.elapsedMs / p.launchesDone) * (total - p.launchesDone) : NaN;
  const rounds = p.rounds === null ? '?' : String(p.rounds);
  const failures = p.failures > 0 ? ` · failures ${p.failures}` : '';
  return `${p.phase} round ${p.round}/${rounds} · launches ${p.launchesDone}/${total ?? '?'}${failures} · ETA ${Number.isFinite(etaMs) ? formatEta(etaMs) : 'estimating'}`;
}

export function formatEta(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
