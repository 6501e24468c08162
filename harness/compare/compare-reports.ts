// Holds a candidate report against a baseline, conclusion by conclusion.
// Pure: two published reports in, statuses out.
//
// A conclusion is one median difference (cohort, state, metric, a, b). Its
// direction in one report: its verdict's (higher 'a>b', lower 'a<b',
// equivalent or undecided 'none'); in a report written before verdicts,
// 'a>b' or 'a<b' when detected (by the sign of the observed difference),
// 'none' when not; 'absent' when the report has no such row. Status:
//   held     same direction in both, "no difference" in both included;
//   changed  opposite directions, both detected;
//   lost     detected in the baseline, not in the candidate (or absent there);
//   gained   detected in the candidate, not detected in the baseline;
//   unmatched  in the candidate only (new: the baseline has nothing to hold
//            it against, so it is never "gained"), or in the baseline only
//            and not detected there.
// Per cell (cohort, path, state, metric): candidate P50 / baseline P50. The
// factor every time cell shares (common-factor.ts) is estimated once; each
// cell's ratio after it is within its tolerance or not (a path-specific move).
// Each conclusion's verdict has two parts: held in direction (status held) and
// held in magnitude (its effect, after the common factor, within the tolerance
// carried from its cells: magnitude-tolerance.ts).
import type { Verdict } from '../analysis/comparison-verdict.js';
import { directionStatus } from '../analysis/direction-status.js';
import { comparedCells, differenceKey, differenceLabel, type DifferenceKey } from '../analysis/difference-record.js';
import { commonFactor, type CommonFactor } from './common-factor.js';
import { canaryMedians, canaryRatio, canaryText, type CanaryRatio } from './run-canary.js';
import { compareHostClass, hostClasses, type ClassComparison } from '../stats/host-class.js';
import {
  betweenRunTolerance,
  cellMagnitude,
  effectMagnitude,
  toleranceOf,
  type CellMagnitude,
  type Magnitude,
  type MagnitudeRule,
  type ToleranceSource,
  TRANSFER_BAND,
} from './magnitude-tolerance.js';
import type { PublishedDifference, PublishedDisk, PublishedReport } from './published-report.js';

export type Direction = 'a>b' | 'a<b' | 'none' | 'absent';
export type Status = 'held' | 'changed' | 'lost' | 'gained' | 'unmatched';

export interface ConclusionComparison extends DifferenceKey {
  kind: 'median_difference' | 'median_ratio';
  baseline: Direction;
  candidate: Direction;
  /** Each report's four-outcome verdict of the conclusion (differences.csv `verdict`); null when it has no such column. */
  baselineVerdict: Verdict | null;
  candidateVerdict: Verdict | null;
  /** The direction part of the verdict: held in direction when 'held'. */
  status: Status;
  /** The magnitude part: the effect after the common factor within the tolerance carried from its cells. */
  magnitude: Magnitude;
  /** Which rule judged the magnitude (a report's rerun interval, else the tolerance), and the rerun interval it used. */
  magnitudeRule: MagnitudeRule;
  rerunInterval: { low: number; high: number } | null;
  /** The candidate's effect after the common factor (d_C / F, or (a/b)_C), and the half-width allowed around the baseline's. */
  adjustedValue: number | null;
  allowed: number | null;
  /** The conclusion's cells outside their tolerance after the common factor, e.g. `docker ×1.42 (tolerance ×1.16)`. */
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
  /** ratio / the common factor (for time cells; byte cells keep their ratio). */
  adjustedRatio: number | null;
  /** T of magnitude-tolerance.ts, and where it comes from. */
  tolerance: number;
  toleranceSource: ToleranceSource;
  /** The adjusted ratio within [1/T, T]. */
  magnitude: CellMagnitude;
  baselineOrderEffect: boolean | null;
  candidateOrderEffect: boolean | null;
}

export interface ReportComparison {
  conclusions: ConclusionComparison[];
  cells: CellRatio[];
  /** The factor every time cell shares, candidate / baseline, said once. */
  factor: CommonFactor;
  /** The host canary's ratio candidate / baseline, said beside the factor (run-canary.ts). */
  canary: CanaryRatio;
  /** The host-class rule on the two runs' canaries (stats/host-class.ts); null without a canary on a side. Another class: magnitudes are judged on ratios (transfer). */
  hostClass: ClassComparison | null;
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
  // the report's own verdict where it has one (the judge's: fixed or sequential, a direction held by every session
  // included), so that compare never calls lost what the report itself calls higher or lower
  if (d.verdict !== null) return d.verdict === 'higher' ? 'a>b' : d.verdict === 'lower' ? 'a<b' : 'none';
  const nullValue = d.kind === 'median_ratio' ? 1 : 0;
  if (!d.detected || d.value === null || d.value === nullValue) return 'none';
  return d.value > nullValue ? 'a>b' : 'a<b';
}

const detected = (d: Direction): boolean => d === 'a>b' || d === 'a<b';

/** A row's rerun interval, or null when the report has none. */
const rerunOf = (d: PublishedDifference | undefined): { low: number; high: number } | null =>
  d && typeof d.rerunLow === 'number' && typeof d.rerunHigh === 'number' ? { low: d.rerunLow, high: d.rerunHigh } : null;

/** The direction verdict in the one vocabulary (analysis/direction-status.ts), or 'unmatched' when a side lacks the conclusion. */
export function statusOf(baseline: Direction, candidate: Direction): Status {
  if (baseline === candidate) return 'held';
  if (baseline === 'absent') return 'unmatched';
  if (candidate === 'absent') return detected(baseline) ? 'lost' : 'unmatched';
  const sign = (d: Direction): -1 | 0 | 1 => (d === 'a>b' ? 1 : d === 'a<b' ? -1 : 0);
  return directionStatus(sign(baseline), sign(candidate));
}

export function compareReports(baseline: PublishedReport, candidate: PublishedReport): ReportComparison {
  const base = new Map(baseline.differences.map((d) => [differenceKey(d), d]));
  const cand = new Map(candidate.differences.map((d) => [differenceKey(d), d]));
  const order = [...base.keys(), ...[...cand.keys()].filter((k) => !base.has(k))];
  const cKey = (c: { cohort: string; path: string; state: string; metric: string }): string => key(c.cohort, c.path, c.state, c.metric);
  const candCells = new Map(candidate.cells.map((c) => [cKey(c), c]));
  const ratioOf = (bc: (typeof baseline.cells)[number]): number | null => {
    const candidateP50 = candCells.get(cKey(bc))?.p50 ?? null;
    return bc.p50 !== null && candidateP50 !== null && bc.p50 !== 0 ? candidateP50 / bc.p50 : null;
  };
  const factor = commonFactor(baseline.cells.map((bc) => ({ ratio: ratioOf(bc), unit: bc.unit })));
  const cells = baseline.cells.map((bc): CellRatio => {
    const cc = candCells.get(cKey(bc));
    const baselineP50 = bc.p50;
    const candidateP50 = cc?.p50 ?? null;
    const ratio = ratioOf(bc);
    const adjustedRatio = ratio === null ? null : bc.unit === 'bytes' ? ratio : ratio / factor.ratio;
    const t = toleranceOf(bc.sessionSpread ?? null, bc.sessions ?? null);
    return {
      cohort: bc.cohort,
      path: bc.path,
      state: bc.state,
      metric: bc.metric,
      unit: bc.unit,
      baselineP50,
      candidateP50,
      ratio,
      adjustedRatio,
      tolerance: t.factor,
      toleranceSource: t.source,
      magnitude: cellMagnitude(adjustedRatio, t.factor),
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
    const own = comparedCells(any).map((cell) => cellsByKey.get(cKey({ ...cell, metric: any.metric })));
    const [ca, cb] = own;
    const effect =
      ca && cb
        ? effectMagnitude({
            kind: any.kind,
            baselineValue: b?.value ?? null,
            candidateValue: c?.value ?? null,
            a: { p50: ca.baselineP50, tolerance: ca.tolerance },
            b: { p50: cb.baselineP50, tolerance: cb.tolerance },
            factor: ca.unit === 'bytes' ? 1 : factor.ratio,
            baselineRerun: rerunOf(b),
            candidateRerun: rerunOf(c),
          })
        : { magnitude: 'not-estimated' as const, adjusted: null, allowed: null, rule: 'tolerance' as const, interval: null };
    return {
      baselineVerdict: b?.verdict ?? null,
      candidateVerdict: c?.verdict ?? null,
      kind: any.kind,
      ...(any.factor ? { factor: any.factor, path: any.path ?? '' } : {}),
      cohort: any.cohort,
      state: any.state,
      metric: any.metric,
      a: any.a,
      b: any.b,
      baseline: baselineDirection,
      candidate: candidateDirection,
      status: statusOf(baselineDirection, candidateDirection),
      magnitude: effect.magnitude,
      magnitudeRule: effect.rule,
      rerunInterval: effect.interval,
      adjustedValue: effect.adjusted,
      allowed: effect.allowed,
      // each side by its own level: a path, or along another factor a cohort or a state
      movedCells: own.flatMap((cell, i) =>
        cell?.magnitude === 'outside' ? [`${i === 0 ? any.a : any.b} ×${cell.adjustedRatio!.toFixed(2)} (tolerance ×${cell.tolerance.toFixed(2)})`] : [],
      ),
      baselineValue: b?.value ?? null,
      candidateValue: c?.value ?? null,
      baselineSessions: b?.sessionsSameDirection ?? null,
      candidateSessions: c?.sessionsSameDirection ?? null,
      baselineOrderEffect: b?.orderEffect ?? null,
      candidateOrderEffect: c?.orderEffect ?? null,
    };
  });
  const hostClass = hostClassOf(baseline, candidate);
  // Another host class: the same-class rerun interval does not apply, and a cell's size does not travel;
  // what is judged is whether the conclusion's ratio a / b transferred (magnitude-tolerance.ts TRANSFER_BAND).
  if (hostClass && !hostClass.same) for (const c of conclusions) Object.assign(c, transferOf(c, cellsByKey, cKey));
  const count = (s: Status): number => conclusions.filter((c) => c.status === s).length;
  return {
    hostClass,
    conclusions,
    cells,
    factor,
    canary: canaryRatio([baseline.canary ?? null], [candidate.canary ?? null], { before: 'the baseline', after: 'the candidate' }),
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

/** The host-class rule on the two folders' canaries, its spread from every archived run of both (stats/host-class.ts); null without a canary. */
function hostClassOf(baseline: PublishedReport, candidate: PublishedReport): ClassComparison | null {
  if (!baseline.canary || !candidate.canary) return null;
  // each run once: a published folder's own run is archived beside it too
  const all = [baseline.canary, candidate.canary, ...(baseline.archiveCanaries ?? []), ...(candidate.archiveCanaries ?? [])];
  const runs = [...new Map(all.map((c) => [JSON.stringify(c.pieces), c])).values()].map(canaryMedians);
  return compareHostClass(canaryMedians(baseline.canary), canaryMedians(candidate.canary), hostClasses(runs).spread);
}

/** Across host classes: the candidate's P50 ratio a / b over the baseline's, held when within the transfer band. */
function transferOf(
  c: ConclusionComparison,
  cells: ReadonlyMap<string, CellRatio>,
  cKey: (c: { cohort: string; path: string; state: string; metric: string }) => string,
): Pick<ConclusionComparison, 'magnitude' | 'magnitudeRule' | 'rerunInterval' | 'adjustedValue' | 'allowed' | 'movedCells'> {
  const [a, b] = comparedCells(c).map((cell) => cells.get(cKey({ ...cell, metric: c.metric })));
  const ratio = (x: number | null | undefined, y: number | null | undefined): number | null => (x && y && x > 0 && y > 0 ? x / y : null);
  const before = ratio(a?.baselineP50, b?.baselineP50);
  const after = ratio(a?.candidateP50, b?.candidateP50);
  const moved = before !== null && after !== null ? after / before : null;
  return {
    magnitude: moved === null ? 'not-estimated' : moved <= TRANSFER_BAND && moved >= 1 / TRANSFER_BAND ? 'held' : 'not-held',
    magnitudeRule: 'cross-class ratio',
    rerunInterval: null,
    adjustedValue: moved,
    allowed: TRANSFER_BAND,
    movedCells: before !== null && after !== null ? [`P50 ratio ${c.a}/${c.b} ×${before.toFixed(2)} → ×${after.toFixed(2)}`] : [],
  };
}

/** "another host class: canary ×2.27 (mem ×5.49, exec ×5.26, cpu ×1.27, fs ×2.19 beyond their run-to-run spread)", or "the same host class". */
export function hostClassLine(h: ClassComparison): string {
  if (h.same) return 'the same host class (every canary piece within its run-to-run spread)';
  const beyond = h.pieces
    .filter((p) => !p.within)
    .sort((x, y) => Math.abs(Math.log(y.ratio)) - Math.abs(Math.log(x.ratio)))
    .map((p) => `${p.piece} ×${p.ratio.toFixed(2)}`);
  return `another host class: canary ${beyond.join(', ')} beyond their run-to-run spread; the same-class rerun interval does not apply, and magnitudes are judged on the ratio a / b (transfer within ×${(1 / TRANSFER_BAND).toFixed(2)}–×${TRANSFER_BAND.toFixed(2)})`;
}

/** A conclusion's name: the one record's label (difference-record.ts). */
export const conclusionLabel = differenceLabel;

/** `docker > oci-full`; without a direction the report's verdict, `equivalent` or `undecided` (`not detected` for a report without the verdict column); `absent` */
export function directionLabel(d: Direction, a: string, b: string, verdict: Verdict | null = null): string {
  if (d === 'a>b') return `${a} > ${b}`;
  if (d === 'a<b') return `${a} < ${b}`;
  if (d !== 'none') return 'absent';
  return verdict === 'equivalent' ? 'equivalent' : verdict === 'undecided' ? 'undecided' : 'not detected';
}

/** `held`, `not held: difference 5820.0 after the common factor, against 3820.0 ± 381.2; docker ×1.42 (tolerance ×1.16)`, `not estimated` */
export function magnitudeLabel(
  c: Pick<ConclusionComparison, 'magnitude' | 'movedCells' | 'adjustedValue' | 'allowed' | 'baselineValue'> & {
    kind?: 'median_difference' | 'median_ratio';
    magnitudeRule?: MagnitudeRule;
    rerunInterval?: { low: number; high: number } | null;
  },
): string {
  if (c.magnitudeRule === 'cross-class ratio') {
    if (c.magnitude === 'not-estimated') return 'not estimated';
    return `${c.magnitude === 'held' ? 'transferred' : 'moved'}: ${c.movedCells.join('; ')} (×${c.adjustedValue!.toFixed(2)}, band ×${(1 / c.allowed!).toFixed(2)}–×${c.allowed!.toFixed(2)})`;
  }
  if (c.magnitude === 'held') return 'held';
  if (c.magnitude !== 'not-held') return 'not estimated';
  if (c.magnitudeRule && c.magnitudeRule !== 'tolerance' && c.rerunInterval && c.adjustedValue !== null) {
    const digits = c.kind === 'median_ratio' ? 2 : 1;
    const what =
      c.magnitudeRule === 'baseline rerun interval'
        ? c.kind === 'median_ratio'
          ? `ratio ×${c.adjustedValue.toFixed(2)}`
          : `difference ${c.adjustedValue.toFixed(1)} after the common factor`
        : c.kind === 'median_ratio'
          ? `the baseline's ratio ×${c.adjustedValue.toFixed(2)}`
          : `the baseline's difference × the common factor, ${c.adjustedValue.toFixed(1)},`;
    return `not held: ${what} outside the ${c.magnitudeRule.replace(' rerun interval', '')}'s rerun interval [${c.rerunInterval.low.toFixed(digits)}, ${c.rerunInterval.high.toFixed(digits)}]${c.movedCells.length ? `; ${c.movedCells.join('; ')}` : ''}`;
  }
  const effect =
    c.adjustedValue === null || c.allowed === null || c.baselineValue === null
      ? []
      : c.kind === 'median_ratio'
        ? [`ratio ×${c.adjustedValue.toFixed(2)} against ×${c.baselineValue.toFixed(2)} (tolerance ×${c.allowed.toFixed(2)})`]
        : [`difference ${c.adjustedValue.toFixed(1)} after the common factor, against ${c.baselineValue.toFixed(1)} ± ${c.allowed.toFixed(1)}`];
  return `not held: ${[...effect, ...c.movedCells].join('; ')}`;
}

/** `every cell ×1.12 [1.10, 1.15], canary ×1.11 (the common factor of 40 time cells; …)`, said once; or why there is none. */
export function factorLine(f: CommonFactor, canary: CanaryRatio | null = null, transfer = false): string {
  if (f.cells === 0) return 'no common factor (fewer than 3 time cells): cells judged as they are';
  const range = f.low !== null && f.high !== null ? ` [${f.low.toFixed(2)}, ${f.high.toFixed(2)}]` : '';
  return `every cell ×${f.ratio.toFixed(2)}${range}${canary ? `, ${canaryText(canary)}` : ''} (the common factor of ${f.cells} time cells${f.exact ? '' : ', their range: too few for a 95% interval'}${transfer ? '' : '; magnitudes judged after it'})`;
}

const cellName = (c: CellRatio): string => `${c.cohort} ${c.path} ${c.state} ${c.metric}`;

/** "20 of 24 conclusions held in direction, 18 in magnitude, 17 in both; every cell ×1.12 …; 4 changed: …; 1 lost: …; 2 not held in magnitude: …; 1 cell beyond the common factor: …" */
export function summaryLine(r: ReportComparison): string {
  const n = r.conclusions.length;
  const transfer = r.hostClass && !r.hostClass.same;
  const parts = [
    ...(r.hostClass ? [hostClassLine(r.hostClass)] : []),
    `${r.held} of ${n} conclusions held in direction, ${r.heldInMagnitude} ${transfer ? 'transferred in ratio' : 'in magnitude'}, ${r.heldInBoth} in both`,
    factorLine(r.factor, r.canary, transfer === true),
  ];
  for (const status of ['changed', 'lost', 'gained', 'unmatched'] as const) {
    const list = r.conclusions.filter((c) => c.status === status);
    if (list.length) parts.push(`${list.length} ${status}: ${list.map(conclusionLabel).join(', ')}`);
  }
  const notHeld = r.conclusions.filter((c) => c.magnitude === 'not-held');
  if (transfer && notHeld.length) parts.push(`${notHeld.length} ratios moved beyond the band (the magnitude column names them)`);
  else
    // a list a reader can take in; beyond that the table names them, row by row
    if (notHeld.length)
      parts.push(
        notHeld.length <= 5
          ? `${notHeld.length} not held in magnitude: ${notHeld.map(conclusionLabel).join(', ')}`
          : `${notHeld.length} not held in magnitude (the magnitude column says why)`,
      );
  const beyond = r.cells.filter((c) => c.magnitude === 'outside');
  if (beyond.length)
    parts.push(
      beyond.length <= 5
        ? `${beyond.length} cell${beyond.length === 1 ? '' : 's'} beyond the common factor: ${beyond.map((c) => `${cellName(c)} ×${c.adjustedRatio!.toFixed(2)}`).join(', ')}`
        : `${beyond.length} cells beyond the common factor (the cell table names them)`,
    );
  const byRule = (rule: MagnitudeRule): number => r.conclusions.filter((c) => c.magnitude !== 'not-estimated' && c.magnitudeRule === rule).length;
  const rerunRules = byRule('baseline rerun interval') + byRule('candidate rerun interval');
  if (rerunRules)
    parts.push(
      `magnitude judged against the ${byRule('candidate rerun interval') ? (byRule('baseline rerun interval') ? "baseline's or candidate's" : "candidate's") : "baseline's"} rerun interval for ${rerunRules}, the tolerance for ${byRule('tolerance')}`,
    );
  const notEstimated = r.conclusions.filter((c) => c.magnitude === 'not-estimated').length;
  if (notEstimated) parts.push(`${notEstimated} with magnitude not estimated (a value or a baseline P50 is missing)`);
  const few = r.cells.filter((c) => c.toleranceSource === 'between-run, fewer than 3 sessions').length;
  if (few)
    parts.push(
      `the tolerance of ${few} cell${few === 1 ? '' : 's'} is the between-run figure ×${betweenRunTolerance.toFixed(2)}, not their session spread: the baseline has fewer than 3 sessions of them`,
    );
  if (r.warnedByOrderEffect > 0) parts.push(`the baseline flagged ${r.warnedByOrderEffect} of the lost or changed ones order effect`);
  return parts.join('; ');
}

/** The machine-readable shape of `pipeline compare --json`. */
export function comparisonJson(r: ReportComparison): Pick<
  ReportComparison,
  'held' | 'changed' | 'lost' | 'gained' | 'unmatched' | 'heldInMagnitude' | 'heldInBoth' | 'factor' | 'canary' | 'hostClass'
> & {
  conclusions: Pick<ConclusionComparison, 'cohort' | 'state' | 'metric' | 'a' | 'b' | 'baseline' | 'candidate' | 'status' | 'magnitude' | 'magnitudeRule'>[];
} {
  return {
    conclusions: r.conclusions.map(({ cohort, state, metric, a, b, baseline, candidate, status, magnitude, magnitudeRule }) => ({
      cohort,
      state,
      metric,
      a,
      b,
      baseline,
      candidate,
      status,
      magnitude,
      magnitudeRule,
    })),
    held: r.held,
    changed: r.changed,
    lost: r.lost,
    gained: r.gained,
    unmatched: r.unmatched,
    heldInMagnitude: r.heldInMagnitude,
    heldInBoth: r.heldInBoth,
    factor: r.factor,
    canary: r.canary,
    hostClass: r.hostClass,
  };
}
