// The history of an experiment: per cell and per conclusion the series over
// runs, each cell's change points (change-points.ts), and for each reported
// change what differs between the run just before and the run just after
// (attribution.ts). Pure.
import { sessionTInterval } from '../stats/session-t-interval.js';
import { changedInputs, forCell, type ChangedInput } from './attribution.js';
import { CONFIDENCE, cellChanges, type CellChange } from './change-points.js';
import { cellKey, type HistoryRun } from './history-run.js';

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
}

export interface ConclusionSeries {
  cohort: string;
  state: string;
  metric: string;
  a: string;
  b: string;
  points: ConclusionPoint[];
}

export interface ReportedChange {
  cohort: string;
  path: string;
  state: string;
  metric: string;
  unit: string;
  run: number;
  ratio: number;
  low: number;
  high: number;
  pValue: number;
  changed: ChangedInput[];
  /** Both runs have a host fingerprint. */
  hostKnown: boolean;
}

export interface History {
  runs: HistoryRun[];
  cells: CellSeries[];
  conclusions: ConclusionSeries[];
  /** Changes that are significant and whose sides' intervals separate, by run then cell. */
  changes: ReportedChange[];
}

export function buildHistory(runs: readonly HistoryRun[]): History {
  const cellOrder: { key: string; cohort: string; path: string; state: string; metric: string }[] = [];
  for (const r of runs) {
    for (const key of Object.keys(r.sessionMedians)) {
      if (cellOrder.some((c) => c.key === key)) continue;
      const [cohort, path, state, metric] = key.split('\u0000') as [string, string, string, string];
      cellOrder.push({ key, cohort, path, state, metric });
    }
  }
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
    return { cohort: c.cohort, path: c.path, state: c.state, metric: c.metric, unit, points, changes: cellChanges(perRun, c.key) };
  });
  const conclusionKeys: string[] = [];
  const dKey = (d: { cohort: string; state: string; metric: string; a: string; b: string }): string => [d.cohort, d.state, d.metric, d.a, d.b].join('\u0000');
  for (const r of runs) for (const d of r.report.differences) if (!conclusionKeys.includes(dKey(d))) conclusionKeys.push(dKey(d));
  const conclusions = conclusionKeys.map((k): ConclusionSeries => {
    const [cohort, state, metric, a, b] = k.split('\u0000') as [string, string, string, string, string];
    const points = runs.flatMap((r, i): ConclusionPoint[] => {
      const d = r.report.differences.find((x) => dKey(x) === k);
      return d ? [{ run: i + 1, value: d.value, low: d.sessionLow ?? d.low, high: d.sessionHigh ?? d.high, detected: d.detected }] : [];
    });
    return { cohort, state, metric, a, b, points };
  });
  const changes: ReportedChange[] = [];
  for (const c of cells) {
    for (const ch of c.changes.filter((x) => x.reported)) {
      const before = runs[ch.run - 2]!;
      const after = runs[ch.run - 1]!;
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
        changed: forCell(changedInputs(before, after), c),
        hostKnown: !!before.fingerprint && !!after.fingerprint,
      });
    }
  }
  changes.sort((a, b) => a.run - b.run);
  return { runs: [...runs], cells, conclusions, changes };
}
