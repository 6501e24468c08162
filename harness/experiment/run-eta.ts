// Pure: the remaining time of a whole sampling run, for its progress line:
// the current session's own remaining launches and every session still
// planned after it (the confirmation session included, as an upper bound,
// while it is undecided). Estimated from the launches so far, per cell
// (path x state), so a mix of slow cold and fast warm launches, or one slow
// path, is weighted by how many of each are left; plus a per-session
// overhead (services, preflight, settling before the first launch and the
// close after the last) measured on the sessions that ended. The clock is a
// parameter: the caller passes Date.now, a test a fake.

/** The launches a planned session makes, per cell. */
export interface PlannedSession {
  session: number;
  /** Launch counts by cell (cellOf(path, state)). */
  launches: ReadonlyMap<string, number>;
  /** True when the session may make fewer launches or none (an undecided confirmation session). */
  upperBound?: boolean;
}

/** The last estimate of a session (what its progress line showed last) and when it was made: journaled in the session record. */
export interface ShownEstimate extends RunEstimate {
  /** The clock's time of the estimate (ms, Date.now for the sampling stage). */
  atMs: number;
}

export interface RunEstimate {
  /** Remaining time of the whole run; NaN while no launch has been timed. */
  runMs: number;
  /** Remaining time of the current session: its launches and its close; NaN while no launch has been timed. */
  sessionMs: number;
  /** True when the run's figure includes a session that may not run (the confirmation). */
  upperBound: boolean;
}

/** The cell of a launch: its path (arm) and state (condition). */
export function cellOf(path: string, state: string): string {
  return `${path}\u0000${state}`;
}

/** Adds `rounds` launches of every (arm, condition) of a unit to `into`. */
export function addRounds(into: Map<string, number>, arms: readonly string[], conditions: readonly string[], rounds: number): Map<string, number> {
  if (rounds <= 0) return into;
  for (const a of arms) for (const c of conditions) into.set(cellOf(a, c), (into.get(cellOf(a, c)) ?? 0) + rounds);
  return into;
}

interface CurrentSession {
  index: number;
  startedMs: number;
  /** When the last launch of this session ended; null before its first. */
  lastMs: number | null;
  left: Map<string, number>;
  done: Map<string, number>;
  /** Session start to the end of its first launch: the opening, which the first launch's time cannot be told from. */
  openingMs: number | null;
}

export class RunEta {
  private readonly plan: PlannedSession[];
  private readonly cells = new Map<string, { n: number; totalMs: number }>();
  private readonly overheadsMs: number[] = [];
  /** Last launch to session end, per ended session: the part of the overhead the current session has still to pay. */
  private readonly closingsMs: number[] = [];
  private current: CurrentSession | null = null;
  /** Plan index of the first session not yet started. */
  private next = 0;
  /** The last estimate made during the current session. */
  private shown: ShownEstimate | null = null;

  constructor(
    plan: readonly PlannedSession[],
    private readonly now: () => number,
  ) {
    this.plan = [...plan];
  }

  /**
   * A session decided on during the run (sampling until decided adds them one at a time) joins the plan with
   * the launches it will make, before it starts: its own ETA then counts them, not nothing.
   */
  addSession(planned: PlannedSession): void {
    if (this.plan.some((p, i) => i >= this.next && p.session === planned.session)) return;
    this.plan.splice(this.current ? this.current.index + 1 : this.next, 0, planned);
  }

  /** A session begins (before its services start, so their start counts as its overhead); one not in the plan is added to it, without launches. */
  startSession(session: number): void {
    let index = this.plan.findIndex((p, i) => i >= this.next && p.session === session);
    if (index < 0) {
      this.plan.splice(this.next, 0, { session, launches: new Map() });
      index = this.next;
    }
    this.next = index;
    this.current = { index, startedMs: this.now(), lastMs: null, left: new Map(this.plan[index]!.launches), done: new Map(), openingMs: null };
    this.shown = null;
  }

  /** A launch of the current session ended (a failed one too: it took its time). */
  launched(path: string, state: string): void {
    const s = this.current;
    if (!s) return;
    const at = this.now();
    const cell = cellOf(path, state);
    if (s.lastMs === null) s.openingMs = at - s.startedMs;
    else {
      const c = this.cells.get(cell) ?? { n: 0, totalMs: 0 };
      c.n++;
      c.totalMs += at - s.lastMs;
      this.cells.set(cell, c);
    }
    s.lastMs = at;
    s.left.set(cell, Math.max(0, (s.left.get(cell) ?? 0) - 1));
    s.done.set(cell, (s.done.get(cell) ?? 0) + 1);
  }

  /**
   * The current session ended: what it took beyond its launches is one more
   * overhead measurement. Returns the session's last estimate (null when it made
   * none), so the run's real remaining time can be compared with it afterwards.
   */
  endSession(): ShownEstimate | null {
    const s = this.current;
    if (!s) return null;
    const endMs = this.now();
    const launchesMs = this.launchesMs(s.done);
    if (Number.isFinite(launchesMs)) this.overheadsMs.push(Math.max(0, endMs - s.startedMs - launchesMs));
    this.closingsMs.push(s.lastMs === null ? endMs - s.startedMs : endMs - s.lastMs);
    this.current = null;
    this.next = s.index + 1;
    const shown = this.shown;
    this.shown = null;
    return shown;
  }

  /** A planned session that will not run (the confirmation found nothing undecided). */
  dropSession(session: number): void {
    const index = this.plan.findIndex((p, i) => i >= this.next && p.session === session);
    if (index >= 0 && index !== this.current?.index) this.plan.splice(index, 1);
  }

  estimate(): RunEstimate {
    const mean = (xs: readonly number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
    const sessionMs = this.current ? this.launchesMs(this.current.left) + (mean(this.closingsMs) ?? 0) : 0;
    let runMs = sessionMs;
    let upperBound = false;
    // Before a session ended, the current one's opening stands for a whole session's overhead.
    const overheadMs = mean(this.overheadsMs) ?? this.current?.openingMs ?? 0;
    const from = this.current ? this.current.index + 1 : this.next;
    for (const p of this.plan.slice(from)) {
      runMs += overheadMs + this.launchesMs(p.launches);
      upperBound ||= p.upperBound === true;
    }
    if (this.current) this.shown = { runMs, sessionMs, upperBound, atMs: this.now() };
    return { runMs, sessionMs, upperBound };
  }

  /** Expected time of these launches at each cell's mean so far (a cell not timed yet: the mean of every timed launch); NaN before any. */
  private launchesMs(counts: ReadonlyMap<string, number>): number {
    let all = 0;
    let n = 0;
    for (const c of this.cells.values()) {
      all += c.totalMs;
      n += c.n;
    }
    let total = 0;
    for (const [cell, count] of counts) {
      if (count === 0) continue;
      const c = this.cells.get(cell);
      const meanMs = c && c.n > 0 ? c.totalMs / c.n : n > 0 ? all / n : Number.NaN;
      total += count * meanMs;
    }
    return total;
  }
}
