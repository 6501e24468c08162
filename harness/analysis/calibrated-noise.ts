// The noise flag calibrated on the host canary (session-noise.ts) for the
// analyze stages of commit-diff and sandbox-effects, which read their samples
// as rows (the default experiment's analysis computes it from its own canary
// statistics): the canary's statistics from the samples' canary rows (phase
// 'canary', the piece in the path column, the repeat in the round column),
// then the session records judged against it. Pure.
import { canaryStatistics, type CanaryLaunchRow } from './canary-statistics.js';
import { sessionNoise } from './session-noise.js';
import type { AnalysisResult } from './analysis-result.js';
import type { SessionRecord } from '../contract/exchange-files.js';
import type { SampleRow } from '../db/sample-row.js';
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
      ok: r.ok,
      completionMs: num(r['completion_ms']),
    }));
}

/** `{ noise }` (analysis.json's `noise`), or `{}` without session records that carry a noise account. */
export function calibratedNoise(
  rows: readonly SampleRow[],
  records: readonly SessionRecord[] | null | undefined,
  bootstrap: BootstrapOptions,
): Pick<AnalysisResult, 'noise'> {
  if (!records || records.length === 0) return {};
  const noise = sessionNoise(records, canaryStatistics(canaryRowsOf(rows), bootstrap));
  return noise ? { noise } : {};
}
