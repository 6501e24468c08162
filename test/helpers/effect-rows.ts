// Made-up journal rows of one effect row (our own logic, no measurement):
// `sessions` sessions of `rounds` rounds, each round one before and one after
// launch whose Ready is drawn by the given functions of a seeded uniform.
import type { EffectRow } from '../../harness/config/effects-section.js';
import type { SampleRow } from '../../harness/db/sample-row.js';
import { seededRandom } from '../../harness/stats/seeded-random.js';

export function madeUpEffectRows(
  row: string,
  shape: { sessions: number; rounds: number },
  before: (u: number, session: number) => number,
  after: (u: number, session: number) => number,
): SampleRow[] {
  const random = seededRandom(row);
  const out: SampleRow[] = [];
  for (let session = 1; session <= shape.sessions; session++) {
    for (let round = 1; round <= shape.rounds; round++) {
      const first = random() < 0.5 ? 'before' : 'after';
      for (const side of ['before', 'after'] as const) {
        const value = (side === 'before' ? before : after)(random(), session);
        out.push({
          experiment: 'fx',
          cohort: row,
          path: side,
          state: 'none',
          phase: 'formal',
          round,
          order_in_round: side === first ? 0 : 1,
          previous_path: side === first ? null : first,
          launch_id: `${row}.${side}.none.f${round}.S${session}.a1`,
          session,
          host: 'h',
          ready_ms: value,
          ok: true,
          started_at: '2026-01-01T00:00:00Z',
        });
      }
    }
  }
  return out;
}

/** A made-up effect row (Ready in ms, lower is better, launches `true`). */
export function madeUpEffectRow(id: string, system: EffectRow['system'] = 'gVisor'): EffectRow {
  return {
    id,
    name: `Row ${id}`,
    system,
    source: `source of ${id}`,
    requires: [],
    setup: [],
    metric: 'ready',
    unit: 'ms',
    p90: false,
    before: { launch: ['true'], prepare: [] },
    after: { launch: ['true'], prepare: [] },
  };
}
