// Holds a candidate report against a baseline, conclusion by conclusion.
// Pure: two published reports in, statuses out.
//
// A conclusion is one median difference (cohort, state, metric, a, b). Its
// direction in one report: 'a>b' or 'a<b' when detected (by the sign of the
// observed difference), 'none' when not detected, 'absent' when the report
// has no such row. Status:
//   held     same direction in both, "no difference" in both included;
//   changed  opposite directions, both detected;
//   lost     detected in the baseline, not in the candidate (or absent there);
//   gained   the reverse;
//   unmatched  in one report only and not detected there.
// Per cell (cohort, path, state, metric): candidate P50 / baseline P50, and
// whether it lies within the tolerance derived from the baseline's
// between-session spread (magnitude-tolerance.ts). Each conclusion's verdict
// has two parts: held in direction (status held) and held in magnitude (both
// its cells within their tolerance).
import { cellMagnitude, conclusionMagnitude, toleranceOf, type CellMagnitude, type Magnitude } from './magnitude-tolerance.js';
import type { PublishedDifference, PublishedDisk, PublishedReport } from './published-report.js';

export type Direction = 'a>b' | 'a<b' | 'none' | 'absent';
export type Status = 'held' | 'changed' | 'lost' | 'gained' | 'unmatched';

export interface ConclusionComparison {
  cohort: string;
  state: string;
  metric: string;
  a: string;
  b: string;
  baseline: Direction;
  candidate: Direction;
  /** The direction part of the verdict: held in direction when 'held'. */
  status: Status;
  /** The magnitude part: both cells' P50 ratios within their tolerance. */
  magnitude: Magnitude;
  /** The conclusion's cells outside their tolerance, e.g. `docker ×1.42 (tolerance ×1.16)`. */
  movedCells: string[];
  baselineValue: number | null;
  candidateValue: number | null;
  baselineSessions: string | null;
  candidateSessions: string | null;
  /** The report flagged a cell of this conclusion "order effect" (null: the report predates the column). */
  baselineOrderEffect: boolean | null;
  candidateOrderEffect: boolean | null;
}

export interface CellRatio {
  cohort: string;
  path: string;
  state: string;
  metric: string;
  unit: string;
  baselineP50: number | null;
  candidateP50: number | null;
  /** candidate / baseline; null when either is missing or the baseline is 0. */
  ratio: number | null;
  /** T of magnitude-tolerance.ts from the baseline's session spread; null without one. */
  tolerance: number | null;
  magnitude: CellMagnitude;
  baselineOrderEffect: boolean | null;
  candidateOrderEffect: boolean | null;
}

export interface ReportComparison {
  conclusions: ConclusionComparison[];
  cells: CellRatio[];
  held: number;
  changed: number;
  lost: number;
  gained: number;
  unmatched: number;
  /** Conclusions held in magnitude, and held in both direction and magnitude. */
  heldInMagnitude: number;
  heldInBoth: number;
  /** Lost or changed conclusions the baseline had flagged order effect: it warned about them. */
  warnedByOrderEffect: number;
  /** Both runs' disk probes (disk.csv), shown beside the cells that moved; empty lists when a report has none. */
  disks: { baseline: PublishedDisk[]; candidate: PublishedDisk[] };
}

/** A cell moved when its P50 ratio lies outside [1/movedRatio, movedRatio]. */
export const movedRatio = 1.25;

export function cellMoved(c: CellRatio): boolean {
  return c.ratio !== null && (c.ratio > movedRatio || c.ratio < 1 / movedRatio);
}

const key = (...parts: string[]): string => parts.join('\u0000');

export function directionOf(d: PublishedDifference | undefined): Direction {
  if (!d) return 'absent';
  const nullValue = d.kind === 'median_ratio' ? 1 : 0;
  if (!d.detected || d.value === null || d.value === nullValue) return 'none';
  return d.value > nullValue ? 'a>b' : 'a<b';
}

const detected = (d: Direction): boolean => d === 'a>b' || d === 'a<b';

export function statusOf(baseline: Direction, candidate: Direction): Status {
  if (baseline === candidate) return 'held';
  if (detected(baseline) && detected(candidate)) return 'changed';
  if (detected(baseline)) return 'lost';
  if (detected(candidate)) return 'gained';
  if (baseline === 'absent' || candidate === 'absent') return 'unmatched';
  return 'held';
}

export function compareReports(baseline: PublishedReport, candidate: PublishedReport): ReportComparison {
  const dKey = (d: PublishedDifference): string => key(d.cohort, d.state, d.metric, d.a, d.b);
  const base = new Map(baseline.differences.map((d) => [dKey(d), d]));
  const cand = new Map(candidate.differences.map((d) => [dKey(d), d]));
  const order = [...base.keys(), ...[...cand.keys()].filter((k) => !base.has(k))];
  const cKey = (c: { cohort: string; path: string; state: string; metric: string }): string => key(c.cohort, c.path, c.state, c.metric);
  const candCells = new Map(candidate.cells.map((c) => [cKey(c), c]));
  const cells = baseline.cells.map((bc): CellRatio => {
    const cc = candCells.get(cKey(bc));
    const baselineP50 = bc.p50;
    const candidateP50 = cc?.p50 ?? null;
    const ratio = baselineP50 !== null && candidateP50 !== null && baselineP50 !== 0 ? candidateP50 / baselineP50 : null;
    const tolerance = toleranceOf(bc.sessionSpread ?? null);
    return {
      cohort: bc.cohort,
      path: bc.path,
      state: bc.state,
      metric: bc.metric,
      unit: bc.unit,
      baselineP50,
      candidateP50,
      ratio,
      tolerance,
      magnitude: cellMagnitude(ratio, tolerance),
      baselineOrderEffect: bc.orderEffect ?? null,
      candidateOrderEffect: cc?.orderEffect ?? null,
    };
  });
  const cellsByKey = new Map(cells.map((c) => [cKey(c), c]));
  const conclusions = order.map((k): ConclusionComparison => {
    const b = base.get(k);
    const c = cand.get(k);
    const any = (b ?? c)!;
    const baselineDirection = directionOf(b);
    const candidateDirection = directionOf(c);
    const own = [any.a, any.b].map((path) => cellsByKey.get(cKey({ cohort: any.cohort, path, state: any.state, metric: any.metric })));
    return {
      cohort: any.cohort,
      state: any.state,
      metric: any.metric,
      a: any.a,
      b: any.b,
      baseline: baselineDirection,
      candidate: candidateDirection,
      status: statusOf(baselineDirection, candidateDirection),
      magnitude: conclusionMagnitude(own.map((cell) => cell?.magnitude ?? 'not-estimated')),
      movedCells: own.flatMap((cell) =>
        cell?.magnitude === 'outside' ? [`${cell.path} ×${cell.ratio!.toFixed(2)} (tolerance ×${cell.tolerance!.toFixed(2)})`] : [],
      ),
      baselineValue: b?.value ?? null,
      candidateValue: c?.value ?? null,
      baselineSessions: b?.sessionsSameDirection ?? null,
      candidateSessions: c?.sessionsSameDirection ?? null,
      baselineOrderEffect: b?.orderEffect ?? null,
      candidateOrderEffect: c?.orderEffect ?? null,
    };
  });
  const count = (s: Status): number => conclusions.filter((c) => c.status === s).length;
  return {
    conclusions,
    cells,
    held: count('held'),
    changed: count('changed'),
    lost: count('lost'),
    gained: count('gained'),
    unmatched: count('unmatched'),
    heldInMagnitude: conclusions.filter((c) => c.magnitude === 'held').length,
    heldInBoth: conclusions.filter((c) => c.status === 'held' && c.magnitude === 'held').length,
    warnedByOrderEffect: conclusions.filter((c) => (c.status === 'lost' || c.status === 'changed') && c.baselineOrderEffect === true).length,
    disks: { baseline: baseline.disks ?? [], candidate: candidate.disks ?? [] },
  };
}

/** `numpy cold ready: docker − oci-full` */
export function conclusionLabel(c: { cohort: string; state: string; metric: string; a: string; b: string }): string {
  return `${c.cohort} ${c.state} ${c.metric}: ${c.a} − ${c.b}`;
}

/** `docker > oci-full`, `no difference`, `absent` */
export function directionLabel(d: Direction, a: string, b: string): string {
  if (d === 'a>b') return `${a} > ${b}`;
  if (d === 'a<b') return `${a} < ${b}`;
  return d === 'none' ? 'no difference' : 'absent';
}

/** `held`, `not held: docker ×1.42 (tolerance ×1.16)`, `not estimated` */
export function magnitudeLabel(c: Pick<ConclusionComparison, 'magnitude' | 'movedCells'>): string {
  if (c.magnitude === 'held') return 'held';
  return c.magnitude === 'not-held' ? `not held: ${c.movedCells.join(', ')}` : 'not estimated';
}

/** "20 of 24 conclusions held in direction, 18 in magnitude, 17 in both; 4 changed: …; 1 lost: …; 2 not held in magnitude: …" */
export function summaryLine(r: ReportComparison): string {
  const n = r.conclusions.length;
  const parts = [`${r.held} of ${n} conclusions held in direction, ${r.heldInMagnitude} in magnitude, ${r.heldInBoth} in both`];
  for (const status of ['changed', 'lost', 'gained', 'unmatched'] as const) {
    const list = r.conclusions.filter((c) => c.status === status);
    if (list.length) parts.push(`${list.length} ${status}: ${list.map(conclusionLabel).join(', ')}`);
  }
  const notHeld = r.conclusions.filter((c) => c.magnitude === 'not-held');
  // a list a reader can take in; beyond that the table names them, row by row
  if (notHeld.length)
    parts.push(
      notHeld.length <= 5
        ? `${notHeld.length} not held in magnitude: ${notHeld.map(conclusionLabel).join(', ')}`
        : `${notHeld.length} not held in magnitude (the magnitude column names their cells)`,
    );
  const notEstimated = r.conclusions.filter((c) => c.magnitude === 'not-estimated').length;
  if (notEstimated) parts.push(`${notEstimated} with magnitude not estimated (the baseline has no session spread for a cell)`);
  if (r.warnedByOrderEffect > 0) parts.push(`the baseline flagged ${r.warnedByOrderEffect} of the lost or changed ones order effect`);
  return parts.join('; ');
}

/** The machine-readable shape of `pipeline compare --json`. */
export function comparisonJson(r: ReportComparison): {
  conclusions: {
    cohort: string;
    state: string;
    metric: string;
    a: string;
    b: string;
    baseline: Direction;
    candidate: Direction;
    status: Status;
    magnitude: Magnitude;
  }[];
  held: number;
  changed: number;
  lost: number;
  gained: number;
  unmatched: number;
  heldInMagnitude: number;
  heldInBoth: number;
} {
  return {
    conclusions: r.conclusions.map(({ cohort, state, metric, a, b, baseline, candidate, status, magnitude }) => ({
      cohort,
      state,
      metric,
      a,
      b,
      baseline,
      candidate,
      status,
      magnitude,
    })),
    held: r.held,
    changed: r.changed,
    lost: r.lost,
    gained: r.gained,
    unmatched: r.unmatched,
    heldInMagnitude: r.heldInMagnitude,
    heldInBoth: r.heldInBoth,
  };
}
