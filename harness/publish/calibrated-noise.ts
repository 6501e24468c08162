// The noise flag calibrated on the host canary (analysis/session-noise.ts)
// for an experiment whose own analysis does not compute it (commit-diff,
// sandbox-effects): the canary's statistics from the samples' canary rows
// (phase 'canary', the piece in the path column, the repeat in the round
// column), then the session records judged against it. Pure.
import { canaryStatistics, type CanaryLaunchRow } from '../analysis/canary-statistics.js';
import { sessionNoise } from '../analysis/session-noise.js';
import type { AnalysisResult } from '../analysis/analysis-result.js';
import type { SessionRecord } from '../contract/exchange-files.js';
import type { SampleRow } from '../db/sample-columns.js';
import type { BootstrapOptions } from '../stats/two-level-bootstrap.js';

/** The canary launches among an experiment's sample rows. */
export function canaryRowsOf(rows: readonly SampleRow[]): CanaryLaunchRow[] {
  const num = (v: unknown): number | null => (v === null || v === undefined || v === '' || !Number.isFinite(Number(v)) ? null : Number(v));
  return rows
    .filter((r) => r['phase'] === 'canary')
    .map((r) => ({
      session: Number(r['session']),
      piece: String(r['path']),
      repeat: Number(r['round']),
      ok: r['ok'] === true || r['ok'] === 'true',
      completionMs: num(r['completion_ms']),
    }));
}

/** `{ noise }` for hostNoiseBlocks, or `{}` without session records that carry a noise account. */
export function calibratedNoise(
  rows: readonly SampleRow[],
  records: readonly SessionRecord[] | null | undefined,
  bootstrap: BootstrapOptions,
): Pick<AnalysisResult, 'noise'> {
  if (!records || records.length === 0) return {};
  const noise = sessionNoise(records, canaryStatistics(canaryRowsOf(rows), bootstrap));
  return noise ? { noise } : {};
}
