// The tests' reference (in TypeScript) of where each formal launch ran in its
// round: its position and the path run just before it, as the analysis works
// them out in SQL (harness/analysis/read-samples.ts).
//
// Samples journaled with the `position` and `previous_path` columns carry
// them; those are used as recorded. Older samples (e.g. the published
// reports/lazy-startup/samples.csv) have only `order_in_round`, the 0-based
// place of the path in its round's order within the cohort (a path's cold and
// warm launches share it). For them, position = order_in_round, and the
// previous path is the path at order_in_round - 1 among the formal launches of
// the same session, cohort and round (failed launches included: they ran
// too), null for the first.
//
// The number of positions of a cohort (P, for the position effect) is the
// number of distinct paths among its formal launches.

export interface OrderSlot {
  session: number;
  cohort: string;
  round: number;
  orderInRound: number;
  path: string;
}

export interface LaunchOrder {
  position: number;
  previousPath: string | null;
}

const slotKey = (session: number, cohort: string, round: number, order: number): string => `${session}\u0000${cohort}\u0000${round}\u0000${order}`;

/** A lookup from a launch's slot to its order, derived from every formal launch's slot. */
export function derivedLaunchOrder(slots: readonly OrderSlot[]): (slot: OrderSlot) => LaunchOrder {
  const pathAt = new Map<string, string>();
  for (const s of slots) pathAt.set(slotKey(s.session, s.cohort, s.round, s.orderInRound), s.path);
  return (s) => ({
    position: s.orderInRound,
    previousPath: s.orderInRound > 0 ? (pathAt.get(slotKey(s.session, s.cohort, s.round, s.orderInRound - 1)) ?? null) : null,
  });
}

/** The recorded order when the row has one, else the derived one. */
export function launchOrderOf(
  row: OrderSlot & { position: number | null; previousPath: string | null },
  derived: (slot: OrderSlot) => LaunchOrder,
): LaunchOrder {
  return row.position !== null ? { position: row.position, previousPath: row.previousPath } : derived(row);
}
