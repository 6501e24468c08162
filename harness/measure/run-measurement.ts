// Runs a measurement: setup once per command, warmup rounds, then formal
// rounds in which every command runs once in a seeded random order, each launch
// preceded by its untimed --prepare; cleanup once per command at the end. With
// --concurrency N a command's launch in a round is a burst: N copies released
// together by the launch helper (Launcher.burst), each timed from the release. Every
// launch goes through the launch helper (harness/launch), the same timing path
// as the sample stage. Without --runs, the number of rounds follows hyperfine:
// about 3 s per command estimated from the first round, within
// --min-runs/--max-runs.
import { CheckFailed } from '../errors.js';
import { Launcher } from '../launch/launcher.js';
import type { LaunchResult, ReadyMode } from '../launch/launch-types.js';
import type { MeasuredCommand } from './command-list.js';
import type { MeasureRecord } from './measure-record.js';
import { observationOf, type MeasurePhase, type Observation } from './observation.js';
import { runRounds } from '../experiment/run-rounds.js';
import { lookAt, type Look, type MeasureMetric, type UntilRule } from './until-decided.js';

/** measure is stopped by the CLI's own signal handling, never mid-round by an abort. */
const NEVER = new AbortController().signal;

export interface MeasurePlan {
  commands: MeasuredCommand[];
  warmup: number;
  /** Fixed number of formal rounds, or null to estimate it. */
  runs: number | null;
  minRuns: number;
  maxRuns: number | null;
  /** Untimed, before each launch: one argv per command (or none). */
  prepare: string[][] | null;
  setup: string[][] | null;
  cleanup: string[][] | null;
  ready: ReadyMode;
  marker: string;
  timeoutMs: number;
  seed: string;
  /** Record failures and go on; otherwise the first failure stops the measurement. */
  ignoreFailure: boolean;
  env: Record<string, string>;
  cwd: string;
  /** --until decided / --precision: stop at the first look that settles every pair (until-decided.ts); null: a fixed or estimated number of rounds. */
  until?: UntilRule | null;
  /** --concurrency: launches of a command released together in each round (1: one at a time). */
  concurrency?: number;
}

/** What the pairs compare: Ready when it is measured (--marker, --ready first-line), otherwise Completion. */
export function comparedMetric(ready: ReadyMode): MeasureMetric {
  return ready === 'none' ? 'completion' : 'ready';
}

export interface MeasureProgress {
  phase: MeasurePhase;
  round: number;
  rounds: number | null;
  launchesDone: number;
  launchesTotal: number | null;
  failures: number;
  elapsedMs: number;
}

export interface MeasureHooks {
  record?: MeasureRecord;
  onProgress?: (p: MeasureProgress) => void;
  /** Wall-clock time source (ms), for the round estimate and progress. */
  now?: () => number;
}

export interface MeasureOutcome {
  /** Formal observations of every complete round, earlier sessions of a record included. */
  observations: Observation[];
  rounds: number;
  /** Rounds taken from an earlier session of the record. */
  resumedRounds: number;
  /** With plan.until: the look it stopped at. */
  look: Look | null;
}

/** Longest time between two writes of the record. */
export const JOURNAL_FLUSH_MS = 1000;

/** hyperfine's target time per command when the runs are not fixed. */
export const TARGET_MS_PER_COMMAND = 3000;

/** Pure: formal rounds for an estimated time per round. */
export function estimateRounds(roundMs: number, commands: number, minRuns: number, maxRuns: number | null): number {
  const perCommandMs = Math.max(roundMs / commands, 1e-3);
  const wanted = Math.ceil(TARGET_MS_PER_COMMAND / perCommandMs);
  return Math.max(minRuns, maxRuns === null ? wanted : Math.min(maxRuns, wanted));
}

export async function runMeasurement(plan: MeasurePlan, hooks: MeasureHooks = {}): Promise<MeasureOutcome> {
  const now = hooks.now ?? (() => performance.now());
  const record = hooks.record;
  const n = plan.commands.length;
  const session = record?.session ?? 1;
  const earlier = record?.earlier ?? [];
  const doneRounds = new Set(earlier.map((o) => o.round));
  const observations: Observation[] = [...earlier];
  // With --until the budget is the plan's last look; the run usually stops before it.
  const budget = plan.until ? plan.until.blockRounds * plan.until.plan.maxSessions : null;
  let rounds: number | null = plan.runs ?? record?.rounds ?? budget;
  let look: Look | null = null;
  const copies = plan.concurrency ?? 1;
  const launcher = await Launcher.start();
  const startMs = now();
  let launchesDone = 0;
  let failures = earlier.filter((o) => !o.ok).length;
  const progress = (phase: MeasurePhase, round: number): void => {
    const total = rounds === null ? null : (plan.warmup * n + (rounds - doneRounds.size) * n) * copies;
    hooks.onProgress?.({
      phase,
      round,
      rounds: phase === 'warmup' ? plan.warmup : rounds,
      launchesDone,
      launchesTotal: total,
      failures,
      elapsedMs: now() - startMs,
    });
  };
  const hook = async (kind: string, argvs: string[][] | null, command: number, id: string): Promise<void> => {
    const argv = argvs?.[argvs.length === 1 ? 0 : command];
    if (!argv) return;
    const r = await launcher.launch({
      launchId: id,
      argv,
      env: plan.env,
      cwd: plan.cwd,
      marker: plan.marker,
      ready: 'none',
      timeoutMs: plan.timeoutMs,
      tailBytes: 4096,
    });
    if (r.state !== 'ok' || r.exitCode !== 0) {
      throw new CheckFailed(`the ${kind} command of '${plan.commands[command]!.name}' failed: ${reasonOf(r)}`, [`command: ${argv.join(' ')}`]);
    }
  };
  const runRound = async (phase: MeasurePhase, round: number): Promise<Observation[]> => {
    const out: Observation[] = [];
    // The experiment model's round runner and seeded order (random, as hyperfine users expect; no settle between launches).
    await runRounds({
      seed: plan.seed,
      session: 1,
      order: 'random',
      arms: plan.commands.map((c) => String(c.index)),
      steps: [{ unit: 'measure', phase, round, of: rounds ?? 0 }],
      signal: NEVER,
      visit: async (v) => {
        const c = Number(v.arm);
        const tag = `${phase === 'formal' ? 'r' : 'w'}${round}.c${c}.a${session}`;
        await hook('--prepare', plan.prepare, c, `p${tag}`);
        const startedAt = new Date().toISOString();
        const request = {
          launchId: tag,
          argv: plan.commands[c]!.argv,
          env: plan.env,
          cwd: plan.cwd,
          marker: plan.marker,
          ready: plan.ready,
          timeoutMs: plan.timeoutMs,
          tailBytes: 4096,
        };
        const at = { command: c, phase, round, orderInRound: v.position, startedAt };
        const these =
          copies === 1
            ? [observationOf({ ...at, launchId: tag }, await launcher.launch(request))]
            : (await launcher.burst(Array.from({ length: copies }, (_, k) => ({ ...request, launchId: `${tag}.k${k}` })))).map((r) => ({
                ...observationOf({ ...at, launchId: r.launchId }, r),
                copy: r.burstIndex,
              }));
        out.push(...these);
        launchesDone += these.length;
        failures += these.filter((o) => !o.ok).length;
        progress(phase, round);
        const failed = these.find((o) => !o.ok);
        if (failed && !plan.ignoreFailure) {
          pending.push(...out);
          throw new CheckFailed(`'${plan.commands[c]!.name}' failed in ${phase} round ${round}: ${failed.failureReason}`, [
            'use -i/--ignore-failure to record failures and go on',
          ]);
        }
      },
    });
    pending.push(...out);
    if (now() - flushedAt >= JOURNAL_FLUSH_MS) await flush();
    return out;
  };
  // The record is written by whole rounds, at most once per JOURNAL_FLUSH_MS and at the end:
  // DuckDB work between two launches slows the second one (bench/measure-vs-hyperfine.ts
  // measured it), and a resume keeps or discards whole rounds anyway.
  const pending: Observation[] = [];
  let flushedAt = now();
  const flush = async (): Promise<void> => {
    if (record && pending.length > 0) await record.append(pending.splice(0));
    pending.length = 0;
    flushedAt = now();
  };
  let setupDone = false;
  let cleanupStarted = false;
  try {
    for (const c of plan.commands) await hook('--setup', plan.setup, c.index, `setup.c${c.index}.s${session}`);
    setupDone = true;
    for (let w = 1; w <= plan.warmup; w++) await runRound('warmup', w);
    let round = 1;
    while (rounds === null || round <= rounds) {
      if (!doneRounds.has(round)) {
        const t0 = now();
        observations.push(...(await runRound('formal', round)));
        if (rounds === null) {
          rounds = estimateRounds(now() - t0, n, plan.minRuns, plan.maxRuns);
          record?.setRounds(rounds);
        }
      }
      if (plan.until) {
        look = lookAt(observations, n, comparedMetric(plan.ready), plan.until, round);
        if (look.stop) {
          rounds = round;
          record?.setRounds(rounds);
          break;
        }
      }
      round++;
    }
    cleanupStarted = true;
    for (const c of plan.commands) await hook('--cleanup', plan.cleanup, c.index, `cleanup.c${c.index}.s${session}`);
  } finally {
    await flush();
    // After a failure, still try to undo what --setup did; the failure itself is what gets reported.
    if (setupDone && !cleanupStarted) {
      for (const c of plan.commands) await hook('--cleanup', plan.cleanup, c.index, `cleanup.c${c.index}.s${session}`).catch(() => undefined);
    }
    await launcher.close();
  }
  return { observations, rounds: rounds ?? 0, resumedRounds: doneRounds.size, look };
}

function reasonOf(r: LaunchResult): string {
  if (r.failureReason) return r.failureReason;
  const err = r.stderrTail.trim().split('\n').pop();
  return `exit code ${r.exitCode}${err ? `; stderr: ${err}` : ''}`;
}
