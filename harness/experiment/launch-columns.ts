// The sample-row columns every experiment fills the same way: where a launch
// stands, what the launch helper measured of it, and the settle before it.
import type { LaunchMeasures, VisitPlace } from '../db/sample-row.js';
import type { LaunchResult } from '../launch/launch-types.js';
import type { SettleOutcome } from './settle.js';
import { launchId } from './session-plan.js';
import type { ArmVisit } from './run-rounds.js';
import { hostName } from '../process/host-name.js';

/** Where a launch stands in the experiment: its unit, arm, condition, round, position and id (the journal's key columns). */
export function visitColumns(experiment: string, v: ArmVisit & { attempt: number }, condition: string): VisitPlace {
  return {
    experiment,
    cohort: v.unit,
    path: v.arm,
    state: condition,
    phase: v.phase,
    round: v.round,
    order_in_round: v.position,
    previous_path: v.previous,
    launch_id: launchId(v.session, v.attempt, v.unit, v.arm, condition, v.phase, v.round),
    session: v.session,
    host: hostName(),
  };
}

export function launchColumns(r: LaunchResult): LaunchMeasures {
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
export function settleColumns(s: SettleOutcome | null): LaunchMeasures {
  return {
    settle_ms: s?.settleMs ?? null,
    dirty_kb: s?.dirtyKb ?? null,
    writeback_kb: s?.writebackKb ?? null,
    settle_timed_out: s && s.settleMs !== null ? s.timedOut : null,
  };
}
