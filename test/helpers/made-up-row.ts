// A made-up sample row, for tests of our own logic: the fields a test names,
// and fixed values for the rest of a row's place (db/sample-row.ts).
import type { LaunchMeasures, RowPlace, SampleRow } from '../../harness/db/sample-row.js';

let made = 0;

export type MadeUpFields = Partial<RowPlace> & LaunchMeasures & { ok?: boolean; failure_reason?: string | null };

export function madeUpRow<Extra extends object = {}>(fields: MadeUpFields & Extra): SampleRow<Extra> {
  made++;
  const { ok = true, failure_reason = null, ...rest } = fields;
  const place: RowPlace = {
    experiment: 'made-up',
    cohort: 'c',
    path: 'p',
    state: 'cold',
    phase: 'formal',
    round: 1,
    order_in_round: 0,
    launch_id: `made-up-${made}`,
    session: 1,
    host: 'h',
    started_at: '2026-01-01T00:00:00.000Z',
  };
  const outcome = ok ? { ok: true as const, failure_reason: null } : { ok: false as const, failure_reason };
  return { ...place, ...rest, ...outcome } as SampleRow<Extra>;
}
