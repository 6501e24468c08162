// Steps in a series of run levels, judged against the between-run variation.
// Pure.
//
// A run's level of a cell is the mean of the logs of its session medians. Runs,
// not sessions, are the units: the sessions of one run share the run's drift,
// so their spread says nothing about how far the next run will land (issue 28).
// A step at run k compares the mean level of the runs before k with that of the
// runs from k on (within the current segment), as
//   t = (mean after − mean before) / (S · √(1/runs before + 1/runs after)),
// where S is the between-run SD of one run's level: pooled from the replicate
// runs of the segment (runs with the same sample-stage key on the same side of
// k: what differs between them is run-to-run variation, by construction), or,
// with no replicate there,
// the documented host-kind figure (harness/stats/host-kind-drift.ts),
// taken as known. Each side needs MIN_SIDE_SESSIONS sessions in all.
// The scan is binary segmentation: a segment's step is located where it
// explains most of the segment's spread, and is a step when its two-sided
// p-value, Bonferroni-corrected over every candidate step of the family (all
// cells, or the shared factor's series), is at most SIGNIFICANCE; the two
// sides are then searched again with the same threshold.
// The step's ratio is exp(mean after − mean before), with a 95% t interval on
// the same S.
// Location: where the data cannot tell two adjacent boundaries apart and the
// runs' inputs changed at one of them (a different sample-stage key or host
// fingerprint: `inputChanges`), a detected step is placed at that boundary when
// it is significant there too. A ×1.3 step against a run sd of 0.054 lands one
// run off in about 3% of series otherwise (bench/history-drift-simulation.ts),
// and a step one run off is a false change at one run and a missed one at the other.
// Blocks: where `inputChanges` is given, a boundary with no input change lies
// inside a block of replicate runs, and its step is judged on that block's runs
// only (sides()); a step where the inputs changed sees the whole segment.
import { studentTCdf, studentTQuantile } from '../stats/student-t.js';

export const SIGNIFICANCE = 0.05;
export const CONFIDENCE = 0.95;
/** Each side of a step needs this many sessions in all (over its runs). */
export const MIN_SIDE_SESSIONS = 3;
/** Degrees of freedom standing for a known SD (the host-kind figure): the t quantiles are then the normal ones to 3 decimals. */
export const KNOWN_DF = 1e4;

export interface SideSummary {
  /** 1-based run numbers of the side's first and last run. */
  fromRun: number;
  toRun: number;
  runs: number;
  sessions: number;
  /** exp of the mean run level: the geometric mean, in the cell's unit (or a factor, for the shared series). */
  mean: number;
}

/** The between-run SD of one run's level, with where it came from. */
export interface Spread {
  sd: number;
  df: number;
  /** `replicates`: pooled from same-key runs on each side of the step; `host-kind`: the documented figure. */
  source: 'replicates' | 'host-kind';
  /** The replicate runs (1-based) it was pooled from; empty for the host-kind figure. */
  runs: number[];
}

export interface CellChange {
  /** 1-based number of the first run after the change. */
  run: number;
  /** Bonferroni-corrected two-sided p-value. */
  pValue: number;
  statistic: number;
  before: SideSummary;
  after: SideSummary;
  ratio: number;
  low: number;
  high: number;
  spread: Spread;
  /** Kept for the plots: every change returned is a reported one. */
  reported: true;
  why: null;
}

/** One series: `levels[i]` the level (ln) of run i+1 or null when the series has no value there; `sessions[i]` its session count. */
export interface LevelSeries {
  levels: readonly (number | null)[];
  sessions: readonly number[];
  /** 1-based runs whose inputs differ from the run before (sample-stage key or host); absent: none known. */
  inputChanges?: readonly number[];
}

/** The SD of one run's level for a step at `run` in the segment of runs fromRun..toRun (1-based): from replicates there, else the fallback. */
export type SpreadBefore = (run: number, fromRun: number, toRun: number) => Spread;

interface Candidate {
  run: number;
  before: number[];
  after: number[];
}

/**
 * The runs (0-based indices, present in the segment) a step between present[j − 1] and present[j] compares.
 * Where the series records its input changes and none lies between those two runs, they are replicates of
 * one block (the runs between two input changes): a step there can only be run-to-run variation or an
 * unrecorded input, and is judged on that block's runs alone. Runs across an input change are not replicates
 * of it, and letting them in made a cell that moved over two host changes look like a step between two
 * same-key runs of one host (numpy docker warm completion between archived runs 2 and 3 of lazy-startup,
 * issue 28). A step where the inputs changed compares the whole segment on each side, as before.
 */
function sides(s: LevelSeries, present: readonly number[], j: number): { before: number[]; after: number[] } {
  if (!s.inputChanges) return { before: present.slice(0, j), after: present.slice(j) };
  const changes = new Set(s.inputChanges);
  const block = (i: number): number => {
    let b = 0;
    for (let r = 2; r <= i + 1; r++) if (changes.has(r)) b++;
    return b;
  };
  const at = block(present[j]!);
  if (block(present[j - 1]!) !== at) return { before: present.slice(0, j), after: present.slice(j) };
  return { before: present.slice(0, j).filter((i) => block(i) === at), after: present.slice(j).filter((i) => block(i) === at) };
}

/** The candidate steps of a segment [from, to) of run indices (0-based): every run boundary with enough sessions on both sides. */
function candidates(s: LevelSeries, from: number, to: number): Candidate[] {
  const present = [];
  for (let i = from; i < to; i++) if (s.levels[i] !== null && s.levels[i] !== undefined) present.push(i);
  const out: Candidate[] = [];
  for (let j = 1; j < present.length; j++) {
    const { before, after } = sides(s, present, j);
    const count = (ix: number[]): number => ix.reduce((n, i) => n + s.sessions[i]!, 0);
    if (count(before) >= MIN_SIDE_SESSIONS && count(after) >= MIN_SIDE_SESSIONS) out.push({ run: present[j]! + 1, before, after });
  }
  return out;
}

/** How many candidate steps the whole series offers: its share of the Bonferroni family. */
export function candidateCount(s: LevelSeries): number {
  return candidates(s, 0, s.levels.length).length;
}

const mean = (v: readonly number[]): number => v.reduce((a, x) => a + x, 0) / v.length;

function judge(s: LevelSeries, c: Candidate, spreadBefore: SpreadBefore, family: number, from: number, to: number): CellChange {
  const x = c.before.map((i) => s.levels[i]!);
  const y = c.after.map((i) => s.levels[i]!);
  const spread = spreadBefore(c.run, from + 1, to);
  const diff = mean(y) - mean(x);
  const se = spread.sd * Math.sqrt(1 / x.length + 1 / y.length);
  const statistic = se > 0 ? diff / se : diff === 0 ? 0 : Math.sign(diff) * Infinity;
  const p = Number.isFinite(statistic) ? 2 * (1 - studentTCdf(Math.abs(statistic), spread.df)) : 0;
  const half = studentTQuantile((1 + CONFIDENCE) / 2, spread.df) * se;
  const side = (ix: number[], v: number[]): SideSummary => ({
    fromRun: ix[0]! + 1,
    toRun: ix[ix.length - 1]! + 1,
    runs: ix.length,
    sessions: ix.reduce((n, i) => n + s.sessions[i]!, 0),
    mean: Math.exp(mean(v)),
  });
  return {
    run: c.run,
    pValue: Math.min(1, p * family),
    statistic,
    before: side(c.before, x),
    after: side(c.after, y),
    ratio: Math.exp(diff),
    low: Math.exp(diff - half),
    high: Math.exp(diff + half),
    spread,
    reported: true,
    why: null,
  };
}

/**
 * The steps of one series by binary segmentation; `family` is the number of candidate steps the Bonferroni
 * correction covers. A segment's step is located where it explains most (the largest nb·na/(nb+na)·(mean
 * difference)², among every run boundary) and only then tested; a location with too few sessions on a side is
 * not reported, but the segment is still split there, so a step of the last run alone never shows as an
 * earlier, diluted one.
 */
export function levelSteps(s: LevelSeries, spreadBefore: SpreadBefore, family: number): CellChange[] {
  const found: CellChange[] = [];
  const search = (from: number, to: number): void => {
    const present: number[] = [];
    for (let i = from; i < to; i++) if (s.levels[i] !== null && s.levels[i] !== undefined) present.push(i);
    if (present.length < 2) return;
    let best = { j: 0, score: -1 };
    for (let j = 1; j < present.length; j++) {
      const side = sides(s, present, j);
      const x = side.before.map((i) => s.levels[i]!);
      const y = side.after.map((i) => s.levels[i]!);
      const score = ((x.length * y.length) / (x.length + y.length)) * (mean(y) - mean(x)) ** 2;
      if (score > best.score + 1e-15) best = { j, score };
    }
    const { before, after } = sides(s, present, best.j);
    const at = present[best.j]!;
    const count = (ix: number[]): number => ix.reduce((n, i) => n + s.sessions[i]!, 0);
    let split = at;
    if (count(before) >= MIN_SIDE_SESSIONS && count(after) >= MIN_SIDE_SESSIONS) {
      let judged = judge(s, { run: at + 1, before, after }, spreadBefore, Math.max(1, family), from, to);
      if (judged.pValue > SIGNIFICANCE) return;
      const inputs = new Set(s.inputChanges ?? []);
      if (!inputs.has(at + 1)) {
        // the neighbouring boundaries where the inputs changed, nearest first (ties: the earlier)
        for (const j of [best.j - 1, best.j + 1]) {
          if (j < 1 || j >= present.length || !inputs.has(present[j]! + 1)) continue;
          const { before: b, after: a } = sides(s, present, j);
          if (count(b) < MIN_SIDE_SESSIONS || count(a) < MIN_SIDE_SESSIONS) continue;
          const there = judge(s, { run: present[j]! + 1, before: b, after: a }, spreadBefore, Math.max(1, family), from, to);
          if (there.pValue <= SIGNIFICANCE) {
            judged = there;
            split = present[j]!;
            break;
          }
        }
      }
      found.push(judged);
    }
    search(from, split);
    search(split, to);
  };
  search(0, s.levels.length);
  return found.sort((a, b) => a.run - b.run);
}

/**
 * The smallest step (as a factor ≥ 1) this series could show at any of its candidate steps,
 * with the spread used there; null when it offers no candidate step.
 */
export function smallestStep(s: LevelSeries, spreadBefore: SpreadBefore, family: number): number | null {
  let best: number | null = null;
  for (const c of candidates(s, 0, s.levels.length)) {
    const spread = spreadBefore(c.run, 1, s.levels.length);
    const crit = studentTQuantile(1 - SIGNIFICANCE / (2 * Math.max(1, family)), spread.df);
    const size = Math.exp(crit * spread.sd * Math.sqrt(1 / c.before.length + 1 / c.after.length));
    if (best === null || size < best) best = size;
  }
  return best;
}

/** A run's level: the mean of the logs of its session medians, or null without a positive one. */
export function runLevel(sessionMedians: readonly number[]): number | null {
  const v = sessionMedians.filter((x) => x > 0 && Number.isFinite(x));
  return v.length ? mean(v.map(Math.log)) : null;
}

/**
 * The between-run SD pooled over groups of replicate runs: each group's values around its own mean,
 * df = Σ (group size − 1); null when no group has two values.
 */
export function pooledSpread(groups: readonly (readonly number[])[]): { sd: number; df: number } | null {
  let ss = 0;
  let df = 0;
  for (const g of groups) {
    if (g.length < 2) continue;
    const m = mean(g);
    ss += g.reduce((a, x) => a + (x - m) ** 2, 0);
    df += g.length - 1;
  }
  return df > 0 ? { sd: Math.sqrt(ss / df), df } : null;
}
