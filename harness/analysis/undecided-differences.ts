// Pure: which differences the first K sessions leave undecided, and which
// cohorts and paths one more session has to visit to decide them
// (design.confirm, docs/STATISTICS.md "Confirmation").
//
// A difference is
//   - detected: the rule of stats/detection-rule.ts holds (the two-level
//     interval excludes 0 and, with 3 or more sessions, the between-session t
//     interval does too) and every session has the pooled direction;
//   - not detected: the two-level interval contains 0 (or nothing is
//     computable);
//   - undecided: the two-level interval excludes 0, but the t interval
//     contains 0 or some session points the other way.
// Detected and not detected are decided and need no confirmation.
import type { DifferenceResult, Verdict } from './analysis-result.js';
import type { DifferenceKey } from './difference-record.js';

export type { Verdict };

export type VerdictInput = Pick<DifferenceResult, 'observedMs' | 'lowMs' | 'highMs' | 'detected' | 'sameDirection' | 'sessions'>;

/** The two-level interval alone excludes 0. */
function bootstrapExcludesZero(d: VerdictInput): boolean {
  return d.observedMs !== null && d.lowMs !== null && d.highMs !== null && (d.lowMs > 0 || d.highMs < 0);
}

export function verdictOf(d: VerdictInput): Verdict {
  if (!bootstrapExcludesZero(d)) return 'not detected';
  return d.detected && d.sameDirection === d.sessions ? 'detected' : 'undecided';
}

export function undecidedDifferences<T extends DifferenceKey & VerdictInput>(differences: readonly T[]): T[] {
  return differences.filter((d) => verdictOf(d) === 'undecided');
}

/** One cohort the confirmation session visits and the paths it launches there (both arms of each undecided difference), sorted. */
export interface ConfirmVisit {
  cohort: string;
  paths: string[];
}

/** The cohorts and paths of the undecided differences, cohorts and paths sorted; empty when none is undecided. */
export function confirmVisits(undecided: readonly DifferenceKey[]): ConfirmVisit[] {
  const byCohort = new Map<string, Set<string>>();
  for (const d of undecided) {
    const set = byCohort.get(d.cohort) ?? new Set<string>();
    set.add(d.a).add(d.b);
    byCohort.set(d.cohort, set);
  }
  return [...byCohort.keys()].sort().map((cohort) => ({ cohort, paths: [...byCohort.get(cohort)!].sort() }));
}
