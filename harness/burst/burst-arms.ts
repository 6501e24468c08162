// Pure: the arms of a burst experiment. A burst arm is a start-up path and a
// concurrency level N (the launches released together), named `<path>-n<N>`
// (e.g. `runsc-n16`), so that every (path, N) is one arm of the model: the
// round's balanced order interleaves paths and levels, and a comparison names
// two arms (two paths at one N, or one path at two N). An open-loop arm is a
// path at an arrival rate λ (launches per second, a fixed count of them per
// visit, each released 1/λ s after the one before whether or not it is done),
// named `<path>-r<λ>` (e.g. `crun-r20`).
import { UserError } from '../errors.js';

export interface BurstArm {
  path: string;
  level: number;
}

export const burstArmName = (path: string, level: number): string => `${path}-n${level}`;

/** The path and level of an arm name; null when the name is not `<path>-n<N>`. */
export function burstArmOf(arm: string): BurstArm | null {
  const m = /^([a-z][a-z0-9-]*?)-n([1-9]\d*)$/.exec(arm);
  return m ? { path: m[1]!, level: Number(m[2]) } : null;
}

/** Every path at every level, then at every arrival rate, paths in their order, levels and rates ascending. */
export function burstArms(paths: readonly string[], levels: readonly number[], ratesPerS: readonly number[] = []): string[] {
  const up = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);
  return paths.flatMap((p) => [...up(levels).map((n) => burstArmName(p, n)), ...up(ratesPerS).map((r) => openArmName(p, r))]);
}

export interface OpenArm {
  path: string;
  /** λ: launches released per second. */
  ratePerS: number;
}

export const openArmName = (path: string, ratePerS: number): string => `${path}-r${ratePerS}`;

/** The path and arrival rate of an open-loop arm name; null when the name is not `<path>-r<λ>`. */
export function openArmOf(arm: string): OpenArm | null {
  const m = /^([a-z][a-z0-9-]*?)-r([1-9]\d*)$/.exec(arm);
  return m ? { path: m[1]!, ratePerS: Number(m[2]) } : null;
}

/** The open loop of a stage's `with.open_loop`: launches per visit (2..max) and rates (whole launches per second, 1..1000, distinct); null when absent. */
export function checkOpenLoop(v: unknown, max: number, at: { file: string; key: string }): { count: number; ratesPerS: number[] } | null {
  if (v === undefined || v === null) return null;
  const o = v as { count?: unknown; rates_per_s?: unknown };
  const count = o.count;
  if (typeof v !== 'object' || !Number.isInteger(count) || (count as number) < 2 || (count as number) > max)
    throw new UserError(`open_loop.count must be a whole number from 2 to ${max}`, at, 'e.g. open_loop: { count: 16, rates_per_s: [5, 20, 80] }');
  const rates = o.rates_per_s;
  if (!Array.isArray(rates) || !rates.length || rates.some((r) => !Number.isInteger(r) || r < 1 || r > 1000) || new Set(rates).size !== rates.length)
    throw new UserError('open_loop.rates_per_s must be distinct whole launches per second from 1 to 1000', at, 'e.g. rates_per_s: [5, 20, 80]');
  return { count: count as number, ratesPerS: [...(rates as number[])].sort((a, b) => a - b) };
}

/** Checks the levels of a stage's `with.levels`: integers 1..max, distinct, with 1 among them (the sequential launch each curve is held against). */
export function checkLevels(levels: unknown, max: number, at: { file: string; key: string }): number[] {
  const ok = Array.isArray(levels) && levels.length > 0 && levels.every((n) => Number.isInteger(n) && n >= 1 && n <= max);
  if (!ok) throw new UserError(`levels must be a list of whole numbers from 1 to ${max}`, at, 'e.g. levels: [1, 2, 4, 8, 16, 32]');
  const xs = levels as number[];
  if (new Set(xs).size !== xs.length) throw new UserError('levels repeat a level', at, 'list each N once');
  if (!xs.includes(1)) throw new UserError('levels lack 1', at, 'add 1: every curve is held against the sequential launch (N = 1)');
  return [...xs].sort((a, b) => a - b);
}
