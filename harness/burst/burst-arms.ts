// Pure: the arms of a burst experiment. A burst arm is a start-up path and a
// concurrency level N (the launches released together), named `<path>-n<N>`
// (e.g. `runsc-n16`), so that every (path, N) is one arm of the model: the
// round's balanced order interleaves paths and levels, and a comparison names
// two arms (two paths at one N, or one path at two N).
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

/** Every path at every level, paths in their order, levels ascending. */
export function burstArms(paths: readonly string[], levels: readonly number[]): string[] {
  return paths.flatMap((p) => [...levels].sort((a, b) => a - b).map((n) => burstArmName(p, n)));
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
