// Pure: which rounds a sampling session still has to run for a cohort, given
// the formal rounds already complete in the journal. A round is complete when
// every path has a row for every state; incomplete rounds are discarded and
// run again after a fresh warmup.

export interface CohortProgress {
  /** Formal round numbers (from 1) whose rows are all present. */
  completeRounds: Set<number>;
  /** Formal round numbers that have some rows but not all. */
  partialRounds: Set<number>;
}

export function cohortProgress(
  rows: readonly { round: number; path: string; state: string }[],
  paths: readonly string[],
  states: readonly string[],
): CohortProgress {
  const seen = new Map<number, Set<string>>();
  for (const r of rows) {
    const set = seen.get(r.round) ?? new Set<string>();
    set.add(`${r.path}\u0000${r.state}`);
    seen.set(r.round, set);
  }
  const need = paths.length * states.length;
  const completeRounds = new Set<number>();
  const partialRounds = new Set<number>();
  for (const [round, set] of seen) {
    const full = paths.every((p) => states.every((s) => set.has(`${p}\u0000${s}`)));
    if (full && set.size === need) completeRounds.add(round);
    else partialRounds.add(round);
  }
  return { completeRounds, partialRounds };
}

/** Formal rounds still to run, ascending. */
export function remainingRounds(total: number, progress: CohortProgress): number[] {
  const out: number[] = [];
  for (let r = 1; r <= total; r++) if (!progress.completeRounds.has(r)) out.push(r);
  return out;
}

/**
 * `cohort.path.state.f12.s1`: '.' cannot occur in cohort or path ids, so two
 * different launches never share an id.
 */
export function launchId(session: number, cohort: string, path: string, state: string, phase: 'preflight' | 'warmup' | 'formal', round: number): string {
  const p = phase === 'formal' ? 'f' : phase === 'warmup' ? 'w' : 'p';
  return `${cohort}.${path}.${state}.${p}${round}.s${session}`;
}
