// Whether a design of K sessions x r rounds was shown by the coverage
// simulation (docs/STATISTICS.md, bench/coverage-table.ts) to cover less than
// a threshold (93% by default): the sentence a report prints when it is used,
// or null. The measured row used is the nearest one at or below the design in
// both sessions and rounds (coverage grows with both); a design below every
// measured row is reported as not calibrated.

export interface CoverageRow {
  sessions: number;
  rounds: number;
  /** Share of simulated experiments whose interval held the true difference. */
  coverage: number;
  /** The interval the row is about, e.g. "two-level bootstrap". */
  interval: string;
}

export const coverageThreshold = 0.93;

export function coverageWarning(rows: readonly CoverageRow[], sessions: number, rounds: number, threshold = coverageThreshold): string | null {
  const below = rows.filter((r) => r.sessions <= sessions && r.rounds <= rounds);
  if (below.length === 0)
    return `${sessions} session${sessions === 1 ? '' : 's'} × ${rounds} rounds is below every calibrated design; the coverage of its intervals is not known`;
  const best = Math.max(...below.map((r) => r.sessions * 1000 + r.rounds));
  const nearest = below.filter((r) => r.sessions * 1000 + r.rounds === best);
  const low = nearest.filter((r) => r.coverage < threshold);
  if (low.length === 0) return null;
  const what = low.map((r) => `the ${r.interval} interval covered ${(100 * r.coverage).toFixed(1)}%`).join(', ');
  const at = `${nearest[0]!.sessions} sessions × ${nearest[0]!.rounds} rounds`;
  return `in simulation with ${at}, ${what} of true differences (nominal 95%, warning below ${(100 * threshold).toFixed(0)}%)`;
}
