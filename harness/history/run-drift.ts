// The run-to-run model of a history: every run has a factor shared by all its
// cells (host speed, the run's drift), and each cell's level moves around it.
// Pure.
//
//   ln level(cell, run) = m(cell) + f(run) + residual
//
// f is estimated by median polish (three rounds of: m = mean over runs of
// level − f; f = median over cells of level − m), from MIN_FACTOR_CELLS or more
// cells; with fewer cells there is no telling a shared move from a cell's, and
// f = 0. A step of f (change-points.ts, on the series of f) is a shift of every
// cell, reported once as a run or host effect. A step of a cell's residual is
// a change of that cell beyond the shared factor: only these are cell changes.
// Between-run SDs: from the replicate runs of the whole series (same sample-stage
// key and the same side of the step, each group around its own mean, so the
// step never measures itself), pooled over groups (and, for the residuals,
// over cells), else the host-kind figures of
// harness/stats/host-kind-drift.ts. Never from the sessions of one run.
// Taking the shared factor out uses one of the C cells' degrees of freedom in
// every run, so the residuals' pooled variance is scaled by C / (C − 1) and its
// degrees of freedom by (C − 1) / C (as in a two-way table's residual). Without
// it a cell's step statistic had variance 1.016 instead of 1 at 40 cells, and
// false series came to 5.6–6.7% at the Bonferroni level of 5%
// (bench/history-drift-simulation.ts, docs/STATISTICS.md).
// A step is placed where the inputs changed (sample-stage key, or `inputChanged`)
// when the data cannot tell that boundary from its neighbour (change-points.ts).
import { median } from '../stats/quantile.js';
import { CELL_LOG_SD, RUN_FACTOR_LOG_SD } from '../stats/host-kind-drift.js';
import { KNOWN_DF, candidateCount, levelSteps, pooledSpread, runLevel, smallestStep, type CellChange, type LevelSeries, type Spread } from './change-points.js';

/** A shared factor needs this many cells: with two, one cell's move is half the factor. */
export const MIN_FACTOR_CELLS = 3;
/** The least between-run SD (ln) a replicate pool may give: made-up or rounded figures can be identical. */
export const MIN_LOG_SD = 0.001;

export interface DriftInput {
  /** Per run: its sample-stage key, or null when not recorded (an imported folder). */
  sampleKeys: readonly (string | null)[];
  /** Per cell: the session medians of each run (empty when the cell is not in that run). */
  cells: readonly { key: string; perRun: readonly (readonly number[])[] }[];
  /**
   * Per run: whether something that could move a sample (an input of the sample stage, the host fingerprint)
   * differs from the run before; absent: a known sample-stage key that differs from the run before's.
   */
  inputChanged?: readonly boolean[];
}

export interface DriftResult {
  /** ln of each run's shared factor (0 without one), centred on the first run that has one. */
  factors: number[];
  /** Cells the factor was estimated from (0: none). */
  factorCells: number;
  /** Steps of the shared factor. */
  shifts: CellChange[];
  /** Per cell key, its changes beyond the shared factor. */
  cellChanges: Map<string, CellChange[]>;
  /** The smallest cell change and shared shift the series could show (factors ≥ 1), null when it offers no step at all. */
  smallest: { cell: number | null; shift: number | null };
}

function sharedFactors(levels: (number | null)[][], runs: number): { factors: number[]; cells: number } {
  const usable = levels.filter((l) => l.filter((x) => x !== null).length >= 2);
  if (usable.length < MIN_FACTOR_CELLS) return { factors: new Array<number>(runs).fill(0), cells: 0 };
  let f = new Array<number>(runs).fill(0);
  let m = usable.map(() => 0);
  for (let round = 0; round < 3; round++) {
    m = usable.map((l) => {
      const v = l.flatMap((x, r) => (x === null ? [] : [x - f[r]!]));
      return v.reduce((a, x) => a + x, 0) / v.length;
    });
    f = f.map((_, r) => {
      const v = usable.flatMap((l, c) => (l[r] === null ? [] : [l[r]! - m[c]!]));
      return v.length >= MIN_FACTOR_CELLS ? median(v) : 0;
    });
  }
  const first = f.find((_, r) => usable.filter((l) => l[r] !== null).length >= MIN_FACTOR_CELLS) ?? 0;
  return { factors: f.map((x) => x - first), cells: usable.length };
}

/**
 * Replicate groups of the segment fromRun..toRun (1-based) for a step at `run`: runs with the same (known)
 * sample-stage key on the same side of the step. Each group is taken around its own mean, so the step itself
 * never widens it; a move within one key on one side (a host change) does.
 */
function replicateGroups(
  keys: readonly (string | null)[],
  run: number,
  fromRun: number,
  toRun: number,
  value: (r: number) => number | null,
): { groups: number[][]; runs: number[] } {
  const groups = new Map<string, { values: number[]; runs: number[] }>();
  for (let r = fromRun - 1; r < toRun; r++) {
    const k = keys[r];
    const v = value(r);
    if (k === null || k === undefined || v === null) continue;
    const g = `${k}\u0000${r < run - 1 ? 'before' : 'after'}`;
    const entry = groups.get(g) ?? { values: [], runs: [] };
    entry.values.push(v);
    entry.runs.push(r + 1);
    groups.set(g, entry);
  }
  const list = [...groups.values()];
  return { groups: list.map((g) => g.values), runs: list.filter((g) => g.runs.length >= 2).flatMap((g) => g.runs) };
}

/** `fitted`: the cells the shared factor was taken out of (0: none), whose residual variance is scaled back. */
function spreadOf(pooled: { sd: number; df: number } | null, runs: number[], fallback: number, fitted = 0): Spread {
  const scale = fitted >= 2 ? fitted / (fitted - 1) : 1;
  return pooled
    ? { sd: Math.max(pooled.sd * Math.sqrt(scale), MIN_LOG_SD), df: pooled.df / scale, source: 'replicates', runs }
    : { sd: fallback, df: KNOWN_DF, source: 'host-kind', runs: [] };
}

/** 1-based runs whose inputs differ from the run before. */
function inputChanges(input: DriftInput): number[] {
  const keys = input.sampleKeys;
  const out: number[] = [];
  for (let r = 1; r < keys.length; r++) {
    const changed = input.inputChanged ? !!input.inputChanged[r] : keys[r] != null && keys[r - 1] != null && keys[r] !== keys[r - 1];
    if (changed) out.push(r + 1);
  }
  return out;
}

export function runDrift(input: DriftInput): DriftResult {
  const runs = input.sampleKeys.length;
  const levels = input.cells.map((c) => Array.from({ length: runs }, (_, r) => runLevel(c.perRun[r] ?? [])));
  const { factors, cells: factorCells } = sharedFactors(levels, runs);
  const sessions = input.cells.map((c) => Array.from({ length: runs }, (_, r) => c.perRun[r]?.length ?? 0));
  const residual = levels.map((l) => l.map((x, r) => (x === null ? null : x - factors[r]!)));

  const changes = inputChanges(input);
  const cellSeries: LevelSeries[] = residual.map((l, c) => ({ levels: l, sessions: sessions[c]!, inputChanges: changes }));
  const cellSpreads = new Map<string, Spread>();
  // The replicate groups of the whole series, not only of the segment being searched: a same-key group is a
  // measure of run-to-run variation wherever it lies, and a segment cut down by earlier steps held one pair or none.
  const cellSpread = (run: number): Spread => {
    const at = String(run);
    const known = cellSpreads.get(at);
    if (known) return known;
    const per = residual.map((l) => replicateGroups(input.sampleKeys, run, 1, runs, (r) => l[r] ?? null));
    const spread = spreadOf(
      pooledSpread(per.flatMap((p) => p.groups)),
      [...new Set(per.flatMap((p) => p.runs))].sort((a, b) => a - b),
      CELL_LOG_SD,
      factorCells,
    );
    cellSpreads.set(at, spread);
    return spread;
  };
  const cellFamily = cellSeries.reduce((n, s) => n + candidateCount(s), 0);
  const cellChanges = new Map(input.cells.map((c, i) => [c.key, levelSteps(cellSeries[i]!, cellSpread, cellFamily)]));

  let shifts: CellChange[] = [];
  let shiftSmallest: number | null = null;
  if (factorCells > 0) {
    const present = (r: number): boolean => levels.some((l) => l[r] !== null);
    const factorSeries: LevelSeries = {
      levels: factors.map((f, r) => (present(r) ? f : null)),
      sessions: Array.from({ length: runs }, (_, r) => Math.max(0, ...sessions.map((s) => s[r]!))),
      inputChanges: changes,
    };
    const factorSpread = (run: number): Spread => {
      const p = replicateGroups(input.sampleKeys, run, 1, runs, (r) => factorSeries.levels[r] ?? null);
      return spreadOf(pooledSpread(p.groups), p.runs, RUN_FACTOR_LOG_SD);
    };
    const family = candidateCount(factorSeries);
    shifts = levelSteps(factorSeries, factorSpread, family);
    shiftSmallest = smallestStep(factorSeries, factorSpread, family);
  }
  const cellSmallest = cellSeries
    .map((s) => smallestStep(s, cellSpread, cellFamily))
    .filter((x): x is number => x !== null)
    .reduce<number | null>((a, x) => (a === null || x < a ? x : a), null);
  return { factors, factorCells, shifts, cellChanges, smallest: { cell: cellSmallest, shift: shiftSmallest } };
}
