// Pure: the two-level bootstrap interval of one cell's median (sessions, then
// rounds within sessions), by the very draws of two-level-bootstrap.ts: each
// round is paired with a constant partner 0, so median(a) - median(b) is
// median(a) and the draw order, percentiles and seed handling are the ones the
// differences use (computed by two-level-bootstrap-fast.ts, the same numbers).
// Rows are {session, round, value} of one cell.
import { twoLevelBootstrap, type BootstrapOptions, type PairedSession } from './two-level-bootstrap.js';

export interface MedianInterval {
  /** Sessions and rounds with at least one value. */
  sessions: number;
  rounds: number;
  n: number;
  medianMs: number | null;
  lowMs: number | null;
  highMs: number | null;
}

export function twoLevelMedian(rows: readonly { session: number; round: number; value: number }[], options: BootstrapOptions): MedianInterval {
  const bySession = new Map<number, Map<number, number[]>>();
  let n = 0;
  for (const r of rows) {
    if (!Number.isFinite(r.value)) continue;
    n++;
    let rounds = bySession.get(r.session);
    if (!rounds) bySession.set(r.session, (rounds = new Map()));
    let values = rounds.get(r.round);
    if (!values) rounds.set(r.round, (values = []));
    values.push(r.value);
  }
  const sessions: PairedSession[] = [...bySession.keys()]
    .sort((x, y) => x - y)
    .map((session) => {
      const rounds = bySession.get(session)!;
      return { session, rounds: [...rounds.keys()].sort((x, y) => x - y).map((k) => ({ a: rounds.get(k)!, b: [0] })) };
    });
  const r = twoLevelBootstrap(sessions, options);
  return { sessions: r.sessions, rounds: r.rounds, n, medianMs: r.observed, lowMs: r.low, highMs: r.high };
}
