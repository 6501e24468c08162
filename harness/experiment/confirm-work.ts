// Pure: the confirmation session's work (design.confirm). After the planned
// K sessions, session K + 1 runs the formal rounds of the cohorts and paths
// the undecided differences involve (analysis/undecided-differences.ts), and
// nothing else. Like any session it resumes at its first incomplete round,
// and once complete it has no work left, so a rerun never adds session K + 2.
import type { ConfirmVisit } from '../analysis/undecided-differences.js';
import { remainingWork, type CohortWork, type JournaledRow, type SessionWork } from './session-plan.js';

/** confirm.json, the sample stage's record of the decision. */
export interface ConfirmRecord {
  format: 'benchgraph-confirm/1';
  /** design.sessions. */
  plannedSessions: number;
  /** The confirmation session (plannedSessions + 1), or null when nothing was undecided. */
  session: number | null;
  /** "none undecided", or which session was added over which cells. */
  decision: string;
  /** The differences undecided on the planned sessions, with the intervals that left them so. */
  undecided: {
    cohort: string;
    state: string;
    metric: string;
    a: string;
    b: string;
    observedMs: number | null;
    lowMs: number | null;
    highMs: number | null;
    sessionLowMs: number | null;
    sessionHighMs: number | null;
    sameDirection: number;
    sessions: number;
  }[];
  /** The cohorts the confirmation session visits and the paths it launches in each. */
  visits: ConfirmVisit[];
}

export const confirmFormat = 'benchgraph-confirm/1';

/** The rounds session `plannedSessions + 1` still has to run over `visits`; null when it has none (or nothing is undecided). */
export function confirmSessionWork(
  rows: readonly JournaledRow[],
  plannedSessions: number,
  visits: readonly ConfirmVisit[],
  design: { rounds: number; states: readonly string[] },
): SessionWork | null {
  const session = plannedSessions + 1;
  const cohorts: CohortWork[] = [];
  for (const v of visits) {
    const mine = rows.filter((r) => r.session === session && r.cohort === v.cohort && v.paths.includes(r.path));
    const work = remainingWork(mine, { sessions: session, rounds: design.rounds, cohorts: [v.cohort], paths: v.paths, states: design.states });
    cohorts.push(...(work.find((w) => w.session === session)?.cohorts ?? []));
  }
  return cohorts.length ? { session, cohorts } : null;
}

/** The one-line decision written to confirm.json and the stage log. */
export function confirmDecision(plannedSessions: number, undecided: number, visits: readonly ConfirmVisit[]): string {
  if (undecided === 0) return 'none undecided';
  const where = visits.map((v) => `${v.cohort}: ${v.paths.join(', ')}`).join('; ');
  return `${undecided} difference${undecided === 1 ? '' : 's'} undecided after ${plannedSessions} session${plannedSessions === 1 ? '' : 's'}: session ${plannedSessions + 1} added over ${where}`;
}
