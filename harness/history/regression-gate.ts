// The CI gate of `pipeline history --fail-on regression`: the latest run
// makes a change in the bad direction reportable for a watched cell, that is
// a change reported with the latest run that was not reported without it. That
// is a change starting at the latest run, or, when one run alone has fewer
// than the 3 sessions a side needs for its interval, a change starting at the
// run before (it becomes reportable one run later). The bad
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

const worse = (c: ReportedChange): boolean => (higherIsWorse(c.metric) ? c.low > 1 : c.high < 1);
const sameChange = (a: ReportedChange, b: ReportedChange): boolean =>
  a.cohort === b.cohort && a.path === b.path && a.state === b.state && a.metric === b.metric && a.run === b.run;

/**
 * Changes for the worse in watched cells that `current` (the series with its latest run) reports and
 * `previous` (the same series without it; null for a series of one run) does not.
 */
export function regressions(current: History, previous: History | null, patterns: readonly string[]): ReportedChange[] {
  return current.changes.filter((c) => watched(c, patterns) && worse(c) && !(previous?.changes ?? []).some((p) => sameChange(p, c)));
}
