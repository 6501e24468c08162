// Pure: a run's operating characteristics (operating-characteristics.ts) from
// its journaled rows, for an experiment whose comparisons are pairs of arms
// within a unit and condition (commit-diff's naive/native per cell and state,
// sandbox-effects' after/before per row): the sessions and formal launches of
// the rows, the looks of a run that sampled until decided, the margin.
import type { PracticalMargin } from '../config/practical-margin.js';
import { differenceProfiles, type ProfiledComparison, type ProfileRow } from './difference-profiles.js';
import type { Looks } from './judge.js';
import { runOperatingCharacteristics, type RunOperatingCharacteristics } from './operating-characteristics.js';

export function runRowsOperating(
  formal: readonly ProfileRow[],
  comparisons: readonly ProfiledComparison[],
  /** The sample column compared: one for every comparison, or per comparison (null: none that the simulation can use). */
  metric: string | ((c: ProfiledComparison) => string | null),
  design: { rounds: number; looks: Looks | null; maxLaunches: number | null; margin: PracticalMargin },
): RunOperatingCharacteristics | null {
  const rows = formal.filter((r) => r.phase === 'formal');
  if (!rows.length) return null;
  const sessions = [...new Set(rows.map((r) => r.session))];
  const first = Math.min(...sessions);
  return runOperatingCharacteristics(
    {
      looks: design.looks,
      sessionsRun: sessions.length,
      roundsPerSession: design.rounds,
      launchesPerSession: rows.filter((r) => r.session === first).length,
      maxLaunches: design.maxLaunches,
      marginRelative: design.margin.relative,
      marginMs: design.margin.absoluteMs,
    },
    profilesByMetric(rows, comparisons, metric),
  );
}

function profilesByMetric(
  rows: readonly ProfileRow[],
  comparisons: readonly ProfiledComparison[],
  metric: string | ((c: ProfiledComparison) => string | null),
) {
  if (typeof metric === 'string') return differenceProfiles(rows, comparisons, metric);
  const groups = new Map<string, ProfiledComparison[]>();
  for (const c of comparisons) {
    const m = metric(c);
    if (m) groups.set(m, [...(groups.get(m) ?? []), c]);
  }
  return [...groups].flatMap(([m, cs]) => differenceProfiles(rows, cs, m));
}
