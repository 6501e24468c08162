// Pure: the order of arms within a round. `balanced` walks the rows of a
// Williams design (williams-design.ts) whose arm labels are shuffled once per
// (seed, session, unit); each full cycle of rows is visited in its own seeded
// order, so every arm is equally often in each position and after each other
// arm within every complete cycle. Rounds that do not fill a cycle keep the
// position balance only as far as the rows they visit do (a partial cycle is a
// seeded sample of the design's rows). `random` is an independent seeded
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

function balancedOrder(p: OrderPlace, arms: readonly string[]): string[] {
  const rows = williamsRows(arms.length);
  const base = `${p.seed}\u0000balanced\u0000s${p.session}\u0000${p.unit}`;
  const labels = shuffled(arms, seededRandom(`${base}\u0000labels`));
  const index = Math.max(p.round, 1) - 1;
  const cycle = Math.floor(index / rows.length);
  const visit = shuffled(
    rows.map((_, i) => i),
    seededRandom(`${base}\u0000${p.phase}\u0000cycle${cycle}`),
  );
  return rows[visit[index % rows.length]!]!.map((i) => labels[i]!);
}
