// The CI gate of `pipeline history --fail-on regression`: the latest run
// starts a reported change in the bad direction for a watched cell. The bad
// direction is set per metric: for the time and byte metrics of a launch
// (ready, completion, content_bytes, response_bytes) and any metric not named
// here, higher is worse. Watched cells are patterns `cohort.path.state.metric`
// with `*` for any part; none given watches every cell. Pure.
import type { History, ReportedChange } from './build-history.js';

export const HIGHER_IS_WORSE: Readonly<Record<string, boolean>> = { ready: true, completion: true, content_bytes: true, response_bytes: true };

export function higherIsWorse(metric: string): boolean {
  return HIGHER_IS_WORSE[metric] ?? true;
}

export function watched(c: { cohort: string; path: string; state: string; metric: string }, patterns: readonly string[]): boolean {
  if (!patterns.length) return true;
  const parts = [c.cohort, c.path, c.state, c.metric];
  return patterns.some((p) => {
    const want = p.split('.');
    return want.length === 4 && want.every((w, i) => w === '*' || w === parts[i]);
  });
}

/** Reported changes that the latest run starts, in the bad direction, in a watched cell. */
export function regressions(h: History, patterns: readonly string[]): ReportedChange[] {
  const latest = h.runs.length;
  return h.changes.filter((c) => c.run === latest && watched(c, patterns) && (higherIsWorse(c.metric) ? c.low > 1 : c.high < 1));
}
