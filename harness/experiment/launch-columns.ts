// Pure: the sample-row columns every experiment fills the same way: what the
// launch helper measured of a launch, and the settle that preceded it.
import type { SampleRow } from '../db/sample-columns.js';
import type { LaunchResult } from '../launch/launch-types.js';
import type { SettleOutcome } from './settle.js';

export function launchColumns(r: LaunchResult): SampleRow {
  return {
    ready_ms: r.readyMs,
    completion_ms: r.completionMs,
    exit_code: r.exitCode,
    signal: r.signal,
    user_cpu_ms: r.userCpuMs,
    sys_cpu_ms: r.sysCpuMs,
    max_rss_kb: r.maxRssKb,
  };
}

/** The settle's columns; all null for a launch that never settled (it could not run). */
export function settleColumns(s: SettleOutcome | null): SampleRow {
  return {
    settle_ms: s?.settleMs ?? null,
    dirty_kb: s?.dirtyKb ?? null,
    writeback_kb: s?.writebackKb ?? null,
    settle_timed_out: s && s.settleMs !== null ? s.timedOut : null,
  };
}
