// Pure: the journaled rows of a burst run as the curve reads them. A formal
// row with a `burst_level` is one launch of a burst; its burst is its arm's
// visit in its session and round (one visit is one burst).
import type { SampleRow } from '../db/sample-row.js';
import type { BurstLaunch } from '../stats/burst-summary.js';
import { burstArmOf } from './burst-arms.js';

export function burstLaunchesOf(rows: readonly SampleRow<{ burst_level?: number | null }>[]): BurstLaunch[] {
  const out: BurstLaunch[] = [];
  for (const r of rows) {
    if (r.phase !== 'formal' || r.burst_level === null || r.burst_level === undefined) continue;
    const arm = burstArmOf(r.path);
    if (!arm) continue;
    const ready = r.ok && typeof r.ready_ms === 'number' ? r.ready_ms : null;
    out.push({
      path: arm.path,
      level: Number(r.burst_level),
      session: r.session,
      burst: `${r.cohort}.${r.state}.r${r.round}`,
      readyMs: ready,
      ok: ready !== null,
    });
  }
  return out;
}
