// The history of an experiment: per cell and per conclusion the series over
// runs; the run-to-run model (run-drift.ts): a factor shared by every cell of
// a run, its shifts (reported once, as a run or host effect), and each cell's
// changes beyond it; for each what differs between the run just before and the
// run just after that could have caused it (attribution.ts). Pure.
import type { Verdict } from '../analysis/comparison-verdict.js';
import { sessionTInterval } from '../stats/session-t-interval.js';
import { differenceKey, type DifferenceKey } from '../analysis/difference-record.js';
import { attribute, forCell, sampleStageKey, type Attribution, type ChangedInput } from './attribution.js';
import { CONFIDENCE, type CellChange, type Spread } from './change-points.js';
import { cellKey, type HistoryRun } from './history-run.js';
import { runDrift } from './run-drift.js';
import { canaryMedians, canaryRatio, type CanaryRatio } from '../compare/run-canary.js';
import { hostClasses } from '../stats/host-class.js';

export interface CellPoint {
  /** 1-based run number in the series. */
  run: number;
  sessions: number[];
  /** The run's P50 of the cell (statistics.csv). */
  p50: number | null;
  /** Student's t interval of the mean of the session medians (3 or more sessions), else null. */
  low: number | null;
  high: number | null;
}

export interface CellSeries {
  cohort: string;
  path: string;
  state: string;
  metric: string;
  unit: string;
  points: CellPoint[];
  changes: CellChange[];
}

export interface ConclusionPoint {
  run: number;
  value: number | null;
  low: number | null;
  high: number | null;
  detected: boolean;
  /** The report's four-outcome verdict (differences.csv `verdict`); null for a report written before it. */
  verdict: Verdict | null;
}

/** One conclusion over the runs: its key (difference-record.ts, a factor's too) and its point in each run that has it. */
export interface ConclusionSeries extends DifferenceKey {
  points: ConclusionPoint[];
}

export interface ReportedChange {
  cohort: string;
  path: string;
  state: string;
  metric: string;
  unit: string;
  run: number;
  /** The cell's change beyond the shared factor of the runs: after/before. */
  ratio: number;
  low: number;
  high: number;
  pValue: number;
  /** The between-run SD it was judged against. */
  spread: Spread;
  /** What could have caused it, marked for this cell (forCell). */
  changed: ChangedInput[];
  attribution: Attribution;
  /** Both runs have a host fingerprint. */
  hostKnown: boolean;
}

/** A shift of every cell together (the runs' shared factor): a run or host effect, or an input change of the sample stage. */
export interface SharedShift {
  run: number;
  ratio: number;
  low: number;
  high: number;
  pValue: number;
  /** Cells the shared factor is estimated from. */
  cells: number;
  spread: Spread;
  /** `run effect` (same sample-stage key, same host), `host effect`, `host class change` (the canary puts the runs on two classes, stats/host-class.ts), `input change`, or `run effect or unrecorded input`. */
  kind: 'run effect' | 'host effect' | 'host class change' | 'input change' | 'run effect or unrecorded input';
  /** A host class change: the cells that moved beyond the shared factor with it, counted here and never reported as cell changes (issue 43). */
  classCells?: number;
  attribution: Attribution;
  /** The host canary's ratio over the same runs (after / before), or why there is none. */
  canary: CanaryRatio;
}

export interface History {
  runs: HistoryRun[];
  cells: CellSeries[];
  conclusions: ConclusionSeries[];
  /** Cell changes beyond the runs' shared factor, by run then cell. */
  changes: ReportedChange[];
  /** Shifts of the factor every cell shares, by run. */
  shifts: SharedShift[];
  /** ln of each run's shared factor (0 without one) and the number of cells it is estimated from (0: none). */
  factors: number[];
  factorCells: number;
  /** The smallest cell change and shared shift (factors ≥ 1) these runs could show; null when they can show none. */
  smallest: { cell: number | null; shift: number | null };
}

const runsText = (from: number, to: number): string => (from === to ? `run ${from}` : `runs ${from}–${to}`);

export function shiftKind(a: Attribution): SharedShift['kind'] {
  if (a.changed.some((c) => c.kind === 'inputs')) return 'run effect or unrecorded input';
  if (a.changed.some((c) => c.kind !== 'host' && c.kind !== 'load')) return 'input change';
  return a.changed.some((c) => c.kind === 'host') ? 'host effect' : 'run effect';
}

export function buildHistory(runs: readonly HistoryRun[]): History {
  const cellOrder: { key: string; cohort: string; path: string; state: string; metric: string }[] = [];
  const seenCells = new Set<string>();
  for (const r of runs) {
    for (const key of Object.keys(r.sessionMedians)) {
      if (seenCells.has(key)) continue;
      seenCells.add(key);
      const [cohort, path, state, metric] = key.split('\u0000') as [string, string, string, string];
      cellOrder.push({ key, cohort, path, state, metric });
    }
  }
  const attributions = new Map<number, Attribution>();
  const at = (run: number): Attribution => {
    let a = attributions.get(run);
    if (!a) attributions.set(run, (a = attribute(runs[run - 2]!, runs[run - 1]!)));
    return a;
  };
  // A step the data cannot place between two adjacent runs goes where something that could move a sample changed.
  const couldMove = (run: number): boolean => at(run).changed.some((c) => c.kind !== 'load' && !c.elsewhere);
  const drift = runDrift({
    sampleKeys: runs.map((r) => sampleStageKey(r.record?.stages ?? null)),
    inputChanged: runs.map((_, i) => i > 0 && couldMove(i + 1)),
    cells: cellOrder.map((c) => ({ key: c.key, perRun: runs.map((r) => r.sessionMedians[c.key] ?? []) })),
  });
  const cells = cellOrder.map((c): CellSeries => {
    const perRun = runs.map((r) => r.sessionMedians[c.key] ?? []);
    const points = runs.flatMap((r, i): CellPoint[] => {
      const sessions = perRun[i]!;
      if (!sessions.length) return [];
      const t = sessionTInterval(sessions, CONFIDENCE);
      const p50 = r.report.cells.find((x) => cellKey(x) === c.key)?.p50 ?? null;
      return [{ run: i + 1, sessions: [...sessions], p50, low: t?.low ?? null, high: t?.high ?? null }];
    });
    const unit = runs.map((r) => r.report.cells.find((x) => cellKey(x) === c.key)?.unit).find(Boolean) ?? 'ms';
    return { cohort: c.cohort, path: c.path, state: c.state, metric: c.metric, unit, points, changes: drift.cellChanges.get(c.key) ?? [] };
  });
  const conclusionKeys: string[] = [];
  const dKey = differenceKey;
  for (const r of runs) for (const d of r.report.differences) if (!conclusionKeys.includes(dKey(d))) conclusionKeys.push(dKey(d));
  const conclusions = conclusionKeys.map((k): ConclusionSeries => {
    const { cohort, state, metric, a, b, factor, path } = runs.flatMap((r) => r.report.differences).find((x) => dKey(x) === k)!;
    const points = runs.flatMap((r, i): ConclusionPoint[] => {
      const d = r.report.differences.find((x) => dKey(x) === k);
      return d
        ? [{ run: i + 1, value: d.value, low: d.sessionLow ?? d.low, high: d.sessionHigh ?? d.high, detected: d.detected, verdict: d.verdict ?? null }]
        : [];
    });
    return { cohort, state, metric, a, b, ...(factor ? { factor, path: path ?? '' } : {}), points };
  });
  const changes: ReportedChange[] = [];
  for (const c of cells) {
    for (const ch of c.changes) {
      const a = at(ch.run);
      changes.push({
        cohort: c.cohort,
        path: c.path,
        state: c.state,
        metric: c.metric,
        unit: c.unit,
        run: ch.run,
        ratio: ch.ratio,
        low: ch.low,
        high: ch.high,
        pValue: ch.pValue,
        spread: ch.spread,
        changed: forCell(a.changed, c),
        attribution: a,
        hostKnown: a.hostKnown,
      });
    }
  }
  changes.sort((a, b) => a.run - b.run);
  // A run on another host class than the run before it: its cells' moves are the class's, not changes of the cells.
  const classOf = hostClassIndex(runs);
  const classChange = (run: number): boolean => classOf[run - 1] !== null && classOf[run - 2] !== null && classOf[run - 1] !== classOf[run - 2];
  const classCells = new Map<number, number>();
  for (const c of changes) if (classChange(c.run)) classCells.set(c.run, (classCells.get(c.run) ?? 0) + 1);
  const cellChanges = changes.filter((c) => !classChange(c.run));
  const shifts = drift.shifts.map((s: CellChange): SharedShift => ({
    ...(classChange(s.run) ? { classCells: classCells.get(s.run) ?? 0 } : {}),
    run: s.run,
    ratio: s.ratio,
    low: s.low,
    high: s.high,
    pValue: s.pValue,
    cells: drift.factorCells,
    spread: s.spread,
    kind: classChange(s.run) ? 'host class change' : shiftKind(at(s.run)),
    attribution: at(s.run),
    canary: canaryRatio(
      runs.slice(s.before.fromRun - 1, s.before.toRun).map((r) => r.report.canary ?? null),
      runs.slice(s.after.fromRun - 1, s.after.toRun).map((r) => r.report.canary ?? null),
      { before: runsText(s.before.fromRun, s.before.toRun), after: runsText(s.after.fromRun, s.after.toRun) },
    ),
  }));
  return {
    runs: [...runs],
    cells,
    conclusions,
    changes: cellChanges,
    shifts,
    factors: drift.factors,
    factorCells: drift.factorCells,
    smallest: drift.smallest,
  };
}

/** Per run, the index of its host class by the canary (stats/host-class.ts), or null for a run without one. */
function hostClassIndex(runs: readonly HistoryRun[]): (number | null)[] {
  const known = runs.flatMap((r, i) => (r.report.canary ? [{ i, medians: canaryMedians(r.report.canary) }] : []));
  const out: (number | null)[] = runs.map(() => null);
  hostClasses(known.map((k) => k.medians)).classes.forEach((members, cls) => {
    for (const m of members) out[known[m]!.i] = cls;
  });
  return out;
}
