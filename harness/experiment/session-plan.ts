// Pure: which sessions and rounds a sampling stage still has to run, given the
// formal rows already in the journal. A round of a session is complete when
// every path has a row for every state; an incomplete round is discarded and
// runs again after a fresh warmup. Sessions run in order: the first incomplete
// session continues at its first incomplete round, later ones start afresh.

export interface JournaledRow {
  session: number;
  cohort: string;
  round: number;
  path: string;
  state: string;
}

export interface CohortWork {
  cohort: string;
  /** Formal rounds still to run, ascending. */
  rounds: number[];
  /** Rounds with some rows but not all: discarded before the session runs. */
  partialRounds: number[];
  /** Rounds already complete. */
  completeRounds: number;
}

export interface SessionWork {
  session: number;
  cohorts: CohortWork[];
}

export interface SessionDesign {
  sessions: number;
  rounds: number;
  cohorts: readonly string[];
  paths: readonly string[];
  states: readonly string[];
}

/** Every session with work left, in order; a session's cohorts with no rounds left are omitted. */
export function remainingWork(rows: readonly JournaledRow[], design: SessionDesign): SessionWork[] {
  const seen = new Map<string, Set<string>>(); // session/cohort/round -> path+state
  for (const r of rows) {
    const k = `${r.session}\u0000${r.cohort}\u0000${r.round}`;
    const set = seen.get(k) ?? new Set<string>();
    set.add(`${r.path}\u0000${r.state}`);
    seen.set(k, set);
  }
  const need = design.paths.length * design.states.length;
  const out: SessionWork[] = [];
  for (let session = 1; session <= design.sessions; session++) {
    const cohorts: CohortWork[] = [];
    for (const cohort of design.cohorts) {
      const rounds: number[] = [];
      const partialRounds: number[] = [];
      let complete = 0;
      for (let round = 1; round <= design.rounds; round++) {
        const set = seen.get(`${session}\u0000${cohort}\u0000${round}`);
        const full = set !== undefined && set.size === need && design.paths.every((p) => design.states.every((s) => set.has(`${p}\u0000${s}`)));
        if (full) complete++;
        else {
          rounds.push(round);
          if (set) partialRounds.push(round);
        }
      }
      if (rounds.length) cohorts.push({ cohort, rounds, partialRounds, completeRounds: complete });
    }
    if (cohorts.length) out.push({ session, cohorts });
  }
  return out;
}

export type Phase = 'preflight' | 'warmup' | 'formal';

/**
 * `cohort.path.state.f12.S2.a1`: formal round 12 of session 2, journaled by
 * the stage's first attempt. '.' cannot occur in cohort or path ids, so two
 * different launches never share an id.
 */
export function launchId(session: number, attempt: number, cohort: string, path: string, state: string, phase: Phase, round: number): string {
  const p = phase === 'formal' ? 'f' : phase === 'warmup' ? 'w' : 'p';
  return `${cohort}.${path}.${state}.${p}${round}.S${session}.a${attempt}`;
}
