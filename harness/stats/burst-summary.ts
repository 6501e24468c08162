// Pure: what one burst did. A burst is N launches of one path released
// together (closed loop: all N in flight from one release), each timed from
// that release on one clock. Per burst: the launches and the failed ones, the
// time to the first Ready, the makespan (the time until the last launch was
// Ready) and launches per second (N over the makespan). A burst with a
// failed launch has no makespan and no rate: not every launch became Ready;
// its failures are counted instead (a failure is never dropped to make a
// makespan).

export interface BurstLaunch {
  path: string;
  /** N: the launches released together. */
  level: number;
  session: number;
  /** The burst's id within its session (its round and position, say). */
  burst: string;
  /** Ready from the burst's release, ms; null when the launch failed or timed out. */
  readyMs: number | null;
  ok: boolean;
}

export interface BurstSummary {
  path: string;
  level: number;
  session: number;
  burst: string;
  launches: number;
  failures: number;
  firstReadyMs: number | null;
  /** All launches Ready; null when one failed. */
  makespanMs: number | null;
  /** launches / makespan; null when one failed. */
  launchesPerS: number | null;
}

const keyOf = (l: Pick<BurstLaunch, 'path' | 'level' | 'session' | 'burst'>): string => JSON.stringify([l.path, l.level, l.session, l.burst]);

export function summarizeBursts(launches: readonly BurstLaunch[]): BurstSummary[] {
  const groups = new Map<string, BurstLaunch[]>();
  for (const l of launches) {
    const k = keyOf(l);
    const g = groups.get(k);
    if (g) g.push(l);
    else groups.set(k, [l]);
  }
  return [...groups.values()].map((g) => {
    const first = g[0]!;
    const ready = g.filter((l) => l.ok && l.readyMs !== null).map((l) => l.readyMs!);
    const failures = g.length - ready.length;
    if (g.length !== first.level) {
      throw new Error(`burst ${first.burst} of ${first.path} in session ${first.session} has ${g.length} launches, not its N = ${first.level}`);
    }
    const makespanMs = failures === 0 && ready.length ? Math.max(...ready) : null;
    return {
      path: first.path,
      level: first.level,
      session: first.session,
      burst: first.burst,
      launches: g.length,
      failures,
      firstReadyMs: ready.length ? Math.min(...ready) : null,
      makespanMs,
      launchesPerS: makespanMs !== null && makespanMs > 0 ? g.length / (makespanMs / 1000) : null,
    };
  });
}
