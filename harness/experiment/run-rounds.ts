// The one scheduler of every experiment: walks a session's rounds
// (session-steps.ts); in each round it visits every arm once, in the design's
// order (arm-order.ts: balanced or random, reproducible from the seed), and
// hands each visit to the experiment's arm adapter, which settles, measures
// and journals its launches. A round's end is where a policy may stop the
// session (a service that died during it). Progress is counted in visits.
import { Interrupted } from '../errors.js';
import { armOrder, type OrderKind } from './arm-order.js';
import type { RoundStep } from './session-steps.js';

export interface ArmVisit {
  session: number;
  unit: string;
  arm: string;
  phase: RoundStep['phase'];
  round: number;
  /** Position of the arm in its round's order, from 0. */
  position: number;
  /** The arm visited just before in this round; null for the first. */
  previous: string | null;
}

export interface RoundsOptions {
  seed: string;
  session: number;
  order: OrderKind;
  arms: readonly string[];
  steps: readonly RoundStep[];
  /** The arm adapter: one visit of one arm on one unit (it journals what it measures). */
  visit(v: ArmVisit): Promise<void>;
  /** Called after each complete round; may throw to stop the session there. */
  afterRound?(step: RoundStep): void;
  signal: AbortSignal;
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Interrupted('abort');
}

export async function runRounds(o: RoundsOptions): Promise<void> {
  for (const step of o.steps) {
    const order = armOrder(o.order, { seed: o.seed, session: o.session, unit: step.unit, phase: step.phase, round: step.round }, o.arms);
    for (const [position, arm] of order.entries()) {
      throwIfAborted(o.signal);
      await o.visit({
        session: o.session,
        unit: step.unit,
        arm,
        phase: step.phase,
        round: step.round,
        position,
        previous: position > 0 ? order[position - 1]! : null,
      });
    }
    o.afterRound?.(step);
  }
}
