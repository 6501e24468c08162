// Ad-hoc measurement (`pipeline measure`): the same launch code as the sample
// stage, run N times on one command, like hyperfine. The command must print the
// marker line itself (default MARKER).

import { quantile } from '../stats/quantile.js';
import { Launcher } from './launcher.js';
import type { LaunchResult } from './launch-types.js';
import { checkOutput } from './output-check.js';

export const DEFAULT_MARKER = 'MARKER';

export interface MeasureOptions {
  argv: string[];
  runs: number;
  warmup: number;
  /** Literal marker line the command prints (default MARKER). */
  marker?: string;
  timeoutMs: number;
  env?: Record<string, string>;
  cwd?: string;
  tailBytes?: number;
  /** A running launcher to reuse; otherwise one is started and closed. */
  launcher?: Launcher;
  /** Called after each launch, warmup included (for progress). */
  onLaunch?: (done: number, total: number, sample: MeasureSample) => void;
}

export interface MeasureSample extends LaunchResult {
  run: number;
  warmup: boolean;
  /** Passed the check: state ok and exit code 0. */
  ok: boolean;
}

export interface Spread {
  median: number;
  p95: number;
  min: number;
  max: number;
}

export interface MeasureSummary {
  runs: number;
  warmup: number;
  failures: number;
  /** Of the formal runs that passed; null when none did. */
  readyMs: Spread | null;
  completionMs: Spread | null;
  /** Reason of the first failure, if any. */
  firstFailure: string | null;
}

export async function measure(opts: MeasureOptions): Promise<{ samples: MeasureSample[]; summary: MeasureSummary }> {
  const marker = opts.marker ?? DEFAULT_MARKER;
  const launcher = opts.launcher ?? (await Launcher.start());
  const samples: MeasureSample[] = [];
  const total = opts.warmup + opts.runs;
  try {
    for (let i = 0; i < total; i++) {
      const warmup = i < opts.warmup;
      const run = warmup ? i + 1 : i - opts.warmup + 1;
      const result = await launcher.launch({
        launchId: `${warmup ? 'w' : 'r'}${run}`,
        argv: opts.argv,
        env: opts.env ?? inheritedEnv(),
        cwd: opts.cwd ?? process.cwd(),
        marker,
        timeoutMs: opts.timeoutMs,
        tailBytes: opts.tailBytes ?? 4096,
      });
      const check = checkOutput(result, { exit_code: 0, stdout_patterns: [] });
      const sample: MeasureSample = {
        ...result,
        run,
        warmup,
        ok: check.ok,
        failureReason: result.failureReason ?? check.reason,
      };
      if (!warmup) samples.push(sample);
      opts.onLaunch?.(i + 1, total, sample);
    }
  } finally {
    if (!opts.launcher) await launcher.close();
  }
  return { samples, summary: summarize(samples, opts.warmup) };
}

/** Pure: median, P95, min and max of Ready and Completion over the runs that passed. */
export function summarize(samples: readonly MeasureSample[], warmup: number): MeasureSummary {
  const passed = samples.filter((s) => s.ok);
  const failed = samples.filter((s) => !s.ok);
  return {
    runs: samples.length,
    warmup,
    failures: failed.length,
    readyMs: spread(passed.map((s) => s.readyMs).filter((v): v is number => v !== null)),
    completionMs: spread(passed.map((s) => s.completionMs).filter((v): v is number => v !== null)),
    firstFailure: failed[0]?.failureReason ?? null,
  };
}

function spread(values: number[]): Spread | null {
  if (values.length === 0) return null;
  return {
    median: quantile(values, 0.5),
    p95: quantile(values, 0.95),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}

function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return env;
}
