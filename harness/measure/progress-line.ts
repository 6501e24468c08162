// Pure: the live progress line of `pipeline measure` on a terminal, with an
// ETA from the launches done so far.
import type { MeasureProgress } from './run-measurement.js';
import { formatDuration } from '../experiment/progress-line.js';

export function formatMeasureProgress(p: MeasureProgress): string {
  const total = p.launchesTotal;
  const etaMs = total !== null && p.launchesDone > 0 ? (p.elapsedMs / p.launchesDone) * (total - p.launchesDone) : NaN;
  const rounds = p.rounds === null ? '?' : String(p.rounds);
  const failures = p.failures > 0 ? ` · failures ${p.failures}` : '';
  return `${p.phase} round ${p.round}/${rounds} · launches ${p.launchesDone}/${total ?? '?'}${failures} · ETA ${Number.isFinite(etaMs) ? formatDuration(etaMs) : 'estimating'}`;
}
