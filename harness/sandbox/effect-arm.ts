// The arm adapter of the effect-table experiment: one visit of one side
// (before or after) of one effect row. Its unmeasured prepare commands run,
// the host settles, the launch helper measures the side's launch, and the
// outcome becomes one sample row (unit = the row id, arm = the side, no
// condition), with the row's metric in ready_ms, completion_ms or value.
import type { SettleSection } from '../config/pipeline-config.js';
import { outcomeOf, type FailedLaunch, type SampleRow } from '../db/sample-row.js';
import { expandArgv } from '../experiment/command-template.js';
import { runHook } from '../experiment/run-hook.js';
import { launchId, type Phase } from '../experiment/session-plan.js';
import { settle } from '../experiment/settle.js';
import { launchColumns, settleColumns } from '../experiment/launch-columns.js';
import type { Launcher } from '../launch/launcher.js';
import { makeMarker } from '../launch/marker.js';
import type { EffectRow, EffectSideName } from '../config/effects-section.js';
import { printedValues } from './printed-values.js';

/** The condition of every effect launch: an effect row has none. */
export const EFFECT_CONDITION = 'none';

export const EFFECT_ENV = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOME: '/root', LANG: 'C.UTF-8' };

export interface EffectVisit {
  experiment: string;
  row: EffectRow;
  side: EffectSideName;
  session: number;
  attempt: number;
  host: string;
  phase: Phase;
  round: number;
  position: number;
  previous: string | null;
  /** Template values of the row: row_dir, sandbox, paths, image_root. */
  values: Record<string, string>;
  cwd: string;
  timeoutMs: number;
  settle: SettleSection;
  signal: AbortSignal;
}

export async function visitEffectSide(launcher: Launcher, v: EffectVisit): Promise<SampleRow> {
  const id = launchId(v.session, v.attempt, v.row.id, v.side, EFFECT_CONDITION, v.phase, v.round);
  const marker = makeMarker(id);
  const side = v.row[v.side];
  let failure: string | null = null;
  for (const cmd of side.prepare) {
    const r = await runHook(expandArgv(cmd, { ...v.values, marker }), EFFECT_ENV, v.cwd, v.timeoutMs);
    if (!r.ok) failure = `prepare failed: ${r.reason}`;
  }
  const base: FailedLaunch = {
    experiment: v.experiment,
    cohort: v.row.id,
    path: v.side,
    state: EFFECT_CONDITION,
    phase: v.phase,
    round: v.round,
    order_in_round: v.position,
    previous_path: v.previous,
    launch_id: id,
    session: v.session,
    host: v.host,
    ok: false,
    failure_reason: failure,
    started_at: new Date().toISOString(),
  };
  if (failure) return base;
  const settled = await settle(v.settle, v.signal);
  const startedAt = new Date().toISOString();
  const r = await launcher.launch({
    launchId: id,
    argv: expandArgv(side.launch, { ...v.values, marker }),
    env: EFFECT_ENV,
    cwd: v.cwd,
    marker,
    timeoutMs: v.timeoutMs,
    tailBytes: 4096,
  });
  const value = v.row.metric.startsWith('printed:') ? (printedValues(r.stdoutTail)[v.row.metric.slice('printed:'.length)] ?? null) : null;
  const measured = v.row.metric === 'ready' ? r.readyMs : v.row.metric === 'completion' ? r.completionMs : value;
  failure = r.state !== 'ok' ? (r.failureReason ?? r.state) : measured === null ? `no value for ${v.row.metric} in the launch's output` : null;
  return {
    ...base,
    started_at: startedAt,
    ...launchColumns(r),
    ...settleColumns(settled),
    value,
    ...outcomeOf(failure === null, failure),
  };
}

/** The measured value of a journaled effect launch: its row's metric. */
export function effectValue(row: EffectRow, sample: SampleRow): number | null {
  const v = row.metric === 'ready' ? sample['ready_ms'] : row.metric === 'completion' ? sample['completion_ms'] : sample['value'];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
