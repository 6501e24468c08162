// One sampling session: for each cohort, rounds of cold/warm pairs in a
// seeded random path order, every launch measured by the C helper and
// journaled as it ends. Hooks run untimed around launches. Effects live here;
// the decisions (order, remaining rounds, values, checks) are pure modules.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { throwIfAborted } from '../experiment/run-rounds.js';
import type { CohortSection, PathSection, PipelineConfig } from '../config/pipeline-config.js';
import type { RunningServices } from '../contract/running-services.js';
import type { Launcher } from '../launch/launcher.js';
import type { LaunchResult, PhaseMark } from '../launch/launch-types.js';
import { checkOutput } from '../launch/output-check.js';
import { makeMarker } from '../launch/marker.js';
import { outcomeOf, type SampleRow } from '../db/sample-row.js';
import { onCleanup } from '../process/cleanup.js';
import { expandArgv, expandString } from '../experiment/command-template.js';
import { launchEnv, launchValues, type LaunchPlace, type SessionValues } from './launch-values.js';
import { launchId, type Phase } from '../experiment/session-plan.js';
import { runHook } from '../experiment/run-hook.js';
import { hookValues, type HookValues } from './hook-values.js';
import { removeScratch } from '../process/safe-remove.js';
import { settle, type SettleOutcome } from '../experiment/settle.js';
import { launchColumns, settleColumns } from '../experiment/launch-columns.js';
import { deathReason, deathsAffecting, servicesUsedBy, stopAfterRound, withServiceDeaths } from './service-fault-policy.js';

export type { Phase };

export interface ColdCheck {
  (path: string, cohort: string, contentBytes: number | null): { ok: boolean; reason: string | null };
}

export interface SessionOptions {
  config: PipelineConfig;
  /** The design's session (from 1): it seeds the path order and is journaled with each launch. */
  session: number;
  /** The sampling stage's start that journals these launches (from 1; a resume is a new attempt). */
  attempt: number;
  /** Name of the host running the launches, journaled with each. */
  host: string;
  sessionDir: string;
  values: SessionValues;
  launcher: Launcher;
  services: RunningServices;
  /** Journals a launch as it ends, with the phase marks it printed. */
  record: (row: SampleRow, phases: readonly PhaseMark[]) => Promise<void>;
  markFailed: (launchIds: readonly string[], reason: string) => Promise<void>;
  coldCheck: ColdCheck;
  signal: AbortSignal;
}

const HOOK_TIMEOUT_MS = 10 * 60 * 1000;

/** A launch's place with the path run just before it in the round. */
type Placed = LaunchPlace & { previousPath: string | null };

export class SamplingSession {
  private readonly paths: [string, PathSection][];
  /** Phase marks of the launch just measured. */
  private lastPhases: PhaseMark[] = [];
  constructor(private readonly o: SessionOptions) {
    this.paths = Object.entries(o.config.paths);
    mkdirSync(o.sessionDir, { recursive: true });
  }

  get pathIds(): string[] {
    return this.paths.map(([id]) => id);
  }

  /** Runs before_session hooks now and registers after_session hooks for the end (and signals). */
  async begin(): Promise<() => Promise<void>> {
    const undo: (() => Promise<void>)[] = [];
    for (const [id, path] of this.paths) {
      for (const hook of path.hooks.before_session) {
        const r = await this.hook(id, path, hook, null);
        if (!r.ok) throw new Error(`before_session hook of path ${id} failed: ${r.reason}`);
      }
      if (path.hooks.after_session.length) {
        undo.push(
          onCleanup(`after_session hooks of path ${id}`, async () => {
            for (const hook of path.hooks.after_session) await this.hook(id, path, hook, null);
          }),
        );
      }
    }
    return async () => {
      for (const u of undo.reverse()) await u();
    };
  }

  /** The service-fault policy at a round's end: a service died during the round, so the session stops now that the round is complete. */
  afterRound(cohortId: string, phase: Phase, round: number): void {
    const stop = stopAfterRound(this.o.services.deaths?.() ?? [], cohortId, phase, round);
    if (stop) throw stop;
  }

  async runPair(cohortId: string, pathId: string, phase: Phase, round: number, orderInRound: number, previousPath: string | null = null): Promise<SampleRow[]> {
    const cohort = this.o.config.cohorts[cohortId]!;
    const path = this.o.config.paths[pathId]!;
    const baseId = launchId(this.o.session, this.o.attempt, cohortId, pathId, 'pair', phase, round);
    const pairDir = join(this.o.sessionDir, 'pairs', baseId);
    mkdirSync(pairDir, { recursive: true });
    const rows: SampleRow[] = [];
    const teardown = onCleanup(`after_pair hooks of ${baseId}`, async () => {
      // On a signal the launch in flight is stopped before its pair is torn down under it.
      if (this.o.signal.aborted) await this.o.launcher.close();
      for (const hook of path.hooks.after_pair) {
        const r = await this.hook(pathId, path, hook, this.place(cohortId, pathId, 'warm', phase, round, pairDir));
        if (!r.ok) throw new Error(r.reason ?? 'failed');
      }
    });
    let teardownFailure: string | null = null;
    try {
      let hookFailure: string | null = null;
      for (const state of this.o.config.design.states) {
        const place = { ...this.place(cohortId, pathId, state, phase, round, pairDir), previousPath };
        if (state === 'cold') {
          for (const hook of path.hooks.before_cold) {
            const r = await this.hook(pathId, path, hook, place);
            if (!r.ok) {
              hookFailure = `before_cold ${r.reason}`;
              break;
            }
          }
        }
        this.lastPhases = [];
        // service-fault-policy.ts: a launch of a path whose service is dead is not started; one it died under fails naming it.
        const deadBefore = deathsAffecting(servicesUsedBy(path), this.o.services.deaths?.() ?? []);
        let row = deadBefore.length
          ? this.failedRow(place, phase, orderInRound, deathReason(deadBefore))
          : hookFailure
            ? this.failedRow(place, phase, orderInRound, hookFailure)
            : await this.measure(place, cohort, path, phase, orderInRound);
        if (!deadBefore.length) row = withServiceDeaths(row, deathsAffecting(servicesUsedBy(path), this.o.services.deaths?.() ?? []));
        if (state === 'cold' && row['ok'] === true) row = await this.afterCold(pathId, path, place, row);
        // A launch cut short by a signal is not a sample: its round is incomplete and runs again.
        this.throwIfAborted();
        await this.o.record(row, this.lastPhases); // journaled as the launch ends
        rows.push(row);
      }
    } finally {
      try {
        await teardown();
      } catch (e) {
        teardownFailure = `after_pair hook failed: ${(e as Error).message}`;
      }
      const left = removeScratch(pairDir);
      if (left.length) teardownFailure = `mounts left behind after the pair: ${left.join(', ')}`;
    }
    if (teardownFailure) {
      // Teardown belongs to the pair: its failure fails the pair's launches. A
      // launch that already failed gets it too (e.g. a dead rclone named by the
      // teardown explains a warm launch's own failure).
      for (const r of rows) {
        const reason = r['ok'] ? teardownFailure : `${String(r['failure_reason'] ?? 'failed')}; ${teardownFailure}`;
        Object.assign(r, { ok: false, failure_reason: reason });
        await this.o.markFailed([String(r['launch_id'])], reason);
      }
    }
    return rows;
  }

  private place(cohort: string, path: string, state: 'cold' | 'warm', phase: Phase, round: number, pairDir: string): Placed {
    const id = launchId(this.o.session, this.o.attempt, cohort, path, state, phase, round);
    return {
      launchId: id,
      marker: makeMarker(id),
      workspace: join(this.o.sessionDir, 'ws', id),
      pairDir,
      sessionDir: this.o.sessionDir,
      state,
      cohort,
      path,
      round,
      previousPath: null,
    };
  }

  private async measure(place: Placed, cohort: CohortSection, path: PathSection, phase: Phase, orderInRound: number): Promise<SampleRow> {
    const values = launchValues(place, cohort, this.o.values);
    let argv: string[];
    let env: Record<string, string>;
    try {
      argv = expandArgv(path.launch, values, cohort.command);
      env = launchEnv(process.env, cohort, path, place, (s) => expandString(s, values));
    } catch (e) {
      return this.failedRow(place, phase, orderInRound, `launch template of path ${place.path}: ${(e as Error).message}`);
    }
    // Fresh per launch: a run interrupted mid-launch can leave this launch's workspace behind, and the
    // warmup's preflight launch ids repeat from run to run (attempt 0), so clear it first.
    const stale = removeScratch(place.workspace);
    if (stale.length) return this.failedRow(place, phase, orderInRound, `mounts left in the launch's workspace by an earlier run: ${stale.join(', ')}`);
    mkdirSync(place.workspace, { recursive: true });
    // Untimed wash-out after every hook of the previous launches and this one: writeback of a torn-down pair is not billed to this launch.
    const settled = await settle(this.o.config.design.settle, this.o.signal);
    const startedAt = new Date().toISOString();
    const counted = path.services.length > 0 && this.o.services.counter !== null;
    if (counted) this.o.services.counter!.begin(place.launchId);
    const result: LaunchResult = await this.o.launcher.launch({
      launchId: place.launchId,
      argv,
      env,
      cwd: place.workspace,
      marker: place.marker,
      timeoutMs: Math.round(this.o.config.design.timeout_s * 1000),
      tailBytes: this.o.config.design.tail_bytes,
    });
    const bytes = counted ? this.o.services.counter!.end(result.readyMs) : null;
    this.lastPhases = result.phases;
    const left = removeScratch(place.workspace);
    let { ok, reason } = checkOutput(result, cohort.expect);
    if (ok && place.state === 'cold') {
      const c = this.o.coldCheck(place.path, place.cohort, bytes?.contentBytes ?? null);
      if (!c.ok) ({ ok, reason } = c);
    }
    if (ok && left.length) {
      ok = false;
      reason = `mounts left in the workspace: ${left.join(', ')}`;
    }
    if (ok && this.o.launcher.lastStrayKilled) {
      // The path left processes in the launch's group; the helper killed them, so what follows may not be what was measured.
      ok = false;
      reason = 'processes left running in the launch process group were killed after it completed';
    }
    return {
      ...this.failedRow(place, phase, orderInRound, reason ?? 'failed', settled),
      ...launchColumns(result),
      content_bytes: bytes ? bytes.contentBytes : null,
      response_bytes: bytes ? bytes.responseBytes : null,
      ready_content_bytes: bytes ? bytes.readyContentBytes : null,
      fetch_wait_ms: bytes ? bytes.fetchWaitMs : null,
      ready_fetch_wait_ms: bytes ? bytes.readyFetchWaitMs : null,
      ...outcomeOf(ok, reason),
      started_at: startedAt,
    };
  }

  /** A row with no measurement: a launch that could not run, with its reason. */
  private failedRow(place: Placed, phase: Phase, orderInRound: number, reason: string, settled: SettleOutcome | null = null): SampleRow {
    return {
      experiment: this.o.config.experiment.name,
      cohort: place.cohort,
      path: place.path,
      state: place.state,
      phase,
      round: place.round,
      order_in_round: orderInRound,
      launch_id: place.launchId,
      session: this.o.session,
      host: this.o.host,
      ready_ms: null,
      completion_ms: null,
      content_bytes: null,
      response_bytes: null,
      exit_code: null,
      signal: null,
      ok: false,
      failure_reason: reason,
      started_at: new Date().toISOString(),
      user_cpu_ms: null,
      sys_cpu_ms: null,
      max_rss_kb: null,
      previous_path: place.previousPath,
      ...settleColumns(settled),
    };
  }

  /** The after_cold hooks of a launch that succeeded: their values join its row (hook-values.ts); a failing hook fails it. */
  private async afterCold(pathId: string, path: PathSection, place: LaunchPlace, row: SampleRow): Promise<SampleRow> {
    let values: HookValues = {};
    for (const hook of path.hooks.after_cold ?? []) {
      const r = await this.hook(pathId, path, hook, place);
      try {
        if (!r.ok) throw new Error(r.reason ?? 'failed');
        values = { ...values, ...hookValues(r.output) };
      } catch (e) {
        return { ...row, ok: false, failure_reason: `after_cold ${(e as Error).message}` };
      }
    }
    return { ...row, ...values };
  }

  private async hook(pathId: string, path: PathSection, template: readonly string[], place: LaunchPlace | null) {
    const cohort: CohortSection = place ? this.o.config.cohorts[place.cohort]! : { command: [], env: {}, expect: { exit_code: 0, stdout_patterns: [] } };
    const p: LaunchPlace = place ?? {
      launchId: `session-${this.o.session}`,
      marker: '',
      workspace: this.o.sessionDir,
      pairDir: this.o.sessionDir,
      sessionDir: this.o.sessionDir,
      state: 'cold',
      cohort: '',
      path: pathId,
      round: 0,
    };
    const values = launchValues(p, cohort, this.o.values);
    try {
      const argv = expandArgv(template, values, cohort.command);
      return await runHook(
        argv,
        launchEnv(process.env, cohort, path, p, (s) => expandString(s, values)),
        this.o.sessionDir,
        HOOK_TIMEOUT_MS,
      );
    } catch (e) {
      return { ok: false, reason: `hook template of path ${pathId}: ${(e as Error).message}`, output: '' };
    }
  }

  private throwIfAborted(): void {
    throwIfAborted(this.o.signal);
  }
}
