// Pure: the order of arms within a round. `balanced` walks the rows of a
// Williams design (williams-design.ts) whose arm labels are shuffled once per
// (seed, session, unit); each full cycle of rows is visited in its own seeded
// order, so every arm is equally often in each position and after each other
// arm within every complete cycle. For an odd number n of arms the cycle's 2n
// rows are its square and the square's mirror, each a Latin square: the cycle
// visits one of them whole (in a seeded order) before the other, so its first
// n rounds already hold every arm once in each position, and 2n rounds the
// carryover balance too. Rounds that do not fill a half cycle keep the
// position balance only as far as the rows they visit do. `random` is an independent seeded
// shuffle per round. Both reproduce any round from the seed alone, so a
// resumed session repeats the order it would have had.
import { seededRandom, shuffled } from '../stats/seeded-random.js';
import { williamsRows } from './williams-design.js';
import type { DesignSection } from '../config/pipeline-config.js';

export type OrderKind = DesignSection['order'];

export interface OrderPlace {
  seed: string;
  /** The design's session, from 1. */
  session: number;
  /** The unit whose rounds these are: a cohort, a sweep cell, an effect row. */
  unit: string;
  /** preflight, warmup or formal: each has its own cycles. */
  phase: string;
  /** The round within its phase, from 1 (0 is read as 1). */
  round: number;
}

export function armOrder(kind: OrderKind, place: OrderPlace, arms: readonly string[]): string[] {
  return kind === 'balanced' ? balancedOrder(place, arms) : randomOrder(place, arms);
}

/** The seeded shuffle the harness used before balanced orders; session 1 keeps the seeding of one-session designs. */
export function randomOrder(p: OrderPlace, arms: readonly string[]): string[] {
  const s = p.session === 1 ? '' : `\u0000s${p.session}`;
  return shuffled(arms, seededRandom(`${p.seed}${s}\u0000${p.unit}\u0000${p.phase}\u0000${p.round}`));
}

/** The order a cycle visits the design's rows: seeded; with two Latin squares (2n rows for n arms), one square whole, then the other. */
function cycleVisit(rows: number, n: number, random: () => number): number[] {
  const all = Array.from({ length: rows }, (_, i) => i);
  if (rows !== 2 * n) return shuffled(all, random);
  const halves = shuffled([all.slice(0, n), all.slice(n)], random);
  return [...shuffled(halves[0]!, random), ...shuffled(halves[1]!, random)];
}

function balancedOrder(p: OrderPlace, arms: readonly string[]): string[] {
  const rows = williamsRows(arms.length);
  const base = `${p.seed}\u0000balanced\u0000s${p.session}\u0000${p.unit}`;
  const labels = shuffled(arms, seededRandom(`${base}\u0000labels`));
  const index = Math.max(p.round, 1) - 1;
  const cycle = Math.floor(index / rows.length);
  const visit = cycleVisit(rows.length, arms.length, seededRandom(`${base}\u0000${p.phase}\u0000cycle${cycle}`));
  return rows[visit[index % rows.length]!]!.map((i) => labels[i]!);
}
