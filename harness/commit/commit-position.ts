// Pure: the position effect of the commit-diff rounds (issue 44). A round
// visits each cell once per method (naive and native), in the round's order;
// of a cell's two visits in a round, one is its first and the other its
// second. Per cell, state and method: the median wall time of its commits made
// second over those made first, with the two-sample bootstrap interval of
// stats/ratio-of-medians.ts. The runs of 2026-12-05 had the second commit of
// a round ×1.3–3.5 slower than the first (a deleted file set billed to the
// next commit on an unjournaled data folder), so the report names every
// interval that excludes 1, until a run has none.
import { ratioOfMedians, type RatioOptions } from '../stats/ratio-of-medians.js';
import type { CommitRowData } from './commit-row-data.js';

export interface CommitPosition {
  cell: string;
  dims: Record<string, number>;
  state: string;
  method: string;
  nFirst: number;
  nSecond: number;
  /** median(second) / median(first), with its interval. */
  ratio: number;
  low: number;
  high: number;
}

/** `orderOf`: a visit's place in its round (order_in_round), by session, round, cell and method; null when not recorded. */
export function commitPositions(
  rows: readonly CommitRowData[],
  orderOf: (r: Pick<CommitRowData, 'session' | 'round' | 'cell' | 'method'>) => number | null,
  o: RatioOptions,
): CommitPosition[] {
  const formal = rows.filter((r) => r.phase === 'formal');
  // the first method of each (session, round, cell): the one with the lower place in the round
  const firstOf = new Map<string, string>();
  const visitKey = (r: Pick<CommitRowData, 'session' | 'round' | 'cell'>): string => `${r.session}|${r.round}|${r.cell}`;
  const places = new Map<string, { method: string; at: number }[]>();
  for (const r of formal) {
    const at = orderOf(r);
    if (at === null) continue;
    const k = visitKey(r);
    const list = places.get(k) ?? [];
    if (!list.some((p) => p.method === r.method)) list.push({ method: r.method, at });
    places.set(k, list);
  }
  for (const [k, list] of places) if (list.length === 2) firstOf.set(k, [...list].sort((x, y) => x.at - y.at)[0]!.method);
  const out: CommitPosition[] = [];
  const groups = new Map<string, CommitRowData[]>();
  for (const r of formal) {
    if (!r.ok || r.wallMs === null || !firstOf.has(visitKey(r))) continue;
    const g = `${r.cell}\u0000${r.state}\u0000${r.method}`;
    groups.set(g, [...(groups.get(g) ?? []), r]);
  }
  for (const [g, rs] of groups) {
    const first = rs.filter((r) => firstOf.get(visitKey(r)) === r.method).map((r) => r.wallMs!);
    const second = rs.filter((r) => firstOf.get(visitKey(r)) !== r.method).map((r) => r.wallMs!);
    const interval = ratioOfMedians(second, first, { ...o, seed: `${String(o.seed)}/position/${g}` });
    if (!interval) continue;
    const r0 = rs[0]!;
    out.push({
      cell: r0.cell,
      dims: r0.dims,
      state: r0.state,
      method: r0.method,
      nFirst: first.length,
      nSecond: second.length,
      ratio: interval.ratio,
      low: interval.low,
      high: interval.high,
    });
  }
  return out;
}
