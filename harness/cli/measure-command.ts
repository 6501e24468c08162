// `pipeline measure`: hyperfine's everyday flags over the project's launch
// helper, for one or more commands. Thin: flags -> MeasurePlan, then
// harness/measure/ runs, summarizes, renders and exports.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from '../errors.js';
import type { ReadyMode } from '../launch/launch-types.js';
import {
  argvGroups,
  buildCommands,
  listValues,
  scanValues,
  toArgv,
  type CommandSource,
  type MeasuredCommand,
  type Parameter,
} from '../measure/command-list.js';
import { exportCsv, exportJson, exportMarkdown } from '../measure/export-formats.js';
import { MeasureRecord } from '../measure/measure-record.js';
import { summarizeMeasurement } from '../measure/measure-summary.js';
import { formatMeasureProgress } from '../measure/progress-line.js';
import { renderText } from '../measure/render-text.js';
import { runMeasurement, type MeasureOutcome, type MeasurePlan, type MeasureProgress } from '../measure/run-measurement.js';
import { substitute } from '../measure/command-list.js';
import { autoUnit, TIME_UNITS, type TimeUnit } from '../measure/time-unit.js';
import { defaultSequentialPlan } from '../stats/sequential-session-interval.js';
import type { UntilRule } from '../measure/until-decided.js';
import { comparedMetric } from '../measure/run-measurement.js';
import type { CliCommand } from './cli-command.js';
import { MAX_BURST } from '../launch/launcher.js';
import { tupleValues, type FlagSpec, type ParsedArgs } from './parse-args.js';

const DEFAULT_BLOCK_ROUNDS = 10;

const FLAGS: FlagSpec = {
  warmup: { kind: 'string', short: 'w', value: 'N', help: 'warmup rounds before the measured ones (default 0)' },
  runs: { kind: 'string', short: 'r', value: 'N', help: 'measured rounds; each runs every command once (default: about 3 s per command)' },
  'min-runs': { kind: 'string', short: 'm', value: 'N', help: 'at least N rounds when --runs is not given (default 10)' },
  'max-runs': { kind: 'string', short: 'M', value: 'N', help: 'at most N rounds when --runs is not given (default no limit)' },
  prepare: { kind: 'list', short: 'p', value: 'CMD', help: 'run before each launch, untimed; once for all commands or once per command' },
  setup: { kind: 'list', short: 's', value: 'CMD', help: 'run once per command before its first launch; once for all or once per command' },
  cleanup: { kind: 'list', short: 'c', value: 'CMD', help: 'run once per command after its last launch; once for all or once per command' },
  'parameter-scan': { kind: 'string', short: 'P', arity: 3, value: 'NAME LO HI', help: 'one command per value LO..HI, {NAME} replaced in the command' },
  'parameter-step-size': { kind: 'string', short: 'D', value: 'DELTA', help: 'step of --parameter-scan (default 1)' },
  'parameter-list': { kind: 'list', short: 'L', arity: 2, value: 'NAME a,b,c', help: 'one command per listed value, {NAME} replaced in the command' },
  shell: {
    kind: 'string',
    short: 'S',
    value: 'SHELL',
    help: "run command strings as SHELL -c STRING (its start-up is included, not subtracted as hyperfine does); 'none' splits them into words (default)",
  },
  'no-shell': { kind: 'boolean', short: 'N', help: 'same as --shell none (the default)' },
  'command-name': { kind: 'list', short: 'n', value: 'NAME', help: 'label of the next command (may use {NAME} parameters)' },
  'ignore-failure': { kind: 'boolean', short: 'i', help: 'record failed runs and go on (otherwise the first failure stops the measurement)' },
  marker: { kind: 'string', value: 'TEXT', help: 'Ready = spawn to the stdout line equal to TEXT; a run without it fails' },
  ready: { kind: 'string', value: 'MODE', help: 'what Ready is: none (default without --marker), first-line, or marker' },
  timeout: { kind: 'string', value: 'S', help: 'kill a run (its whole process group) after S seconds (default 600)' },
  seed: { kind: 'string', value: 'SEED', help: 'seed of the order within rounds and of the bootstrap (default 1)' },
  'time-unit': { kind: 'string', short: 'u', value: 'UNIT', help: 'microsecond, millisecond or second (default: by the medians)' },
  'export-json': { kind: 'string', value: 'FILE', help: "write hyperfine's JSON fields (seconds) plus P95, Ready, groups and pairs" },
  'export-csv': { kind: 'string', value: 'FILE', help: 'one row per command (seconds)' },
  'export-markdown': { kind: 'string', value: 'FILE', help: 'a table of medians with the ratio to the fastest' },
  record: { kind: 'string', value: 'DIR', help: 'journal every launch to DIR/samples.duckdb; rerun to resume; DIR/samples.csv feeds import-samples' },
  json: { kind: 'boolean', help: 'print the JSON export to stdout instead of the text' },
  until: {
    kind: 'string',
    value: 'decided',
    help: 'look after every --block rounds and stop when every pair is lower, higher or equivalent within --margin (sequential interval: its error rate holds under the stopping)',
  },
  precision: { kind: 'string', value: 'P%', help: "like --until, but stop when every pair's ratio is known within ±P% (sequential interval)" },
  margin: { kind: 'string', value: 'P%', help: 'practical margin: a pair whose interval of the ratio lies within 1 ± P is "equivalent" (default 5%)' },
  concurrency: {
    kind: 'string',
    value: 'N',
    help: `launch N copies of each command at once, released together by the launch helper (closed loop; 1 to ${MAX_BURST}, default 1): per-launch times from the release, and per burst the time to the first and last, launches/s and failures`,
  },
  block: {
    kind: 'string',
    value: 'N',
    help: `rounds between two looks of --until/--precision (default ${DEFAULT_BLOCK_ROUNDS}); at most 12 looks, or --max-runs / N`,
  },
};

const USAGE = "pipeline measure [flags] -- CMD [ARGS..] [-- CMD2 [ARGS..] ..]   or   pipeline measure [flags] 'CMD' ['CMD2' ..]";

const ABOUT = `
Measures commands the way hyperfine does, with the launch helper of the sample stage:
Completion = spawn to exit with stdout and stderr closed. Several commands run
interleaved: each round runs every command once, in a seeded random order. Every pair
gets the ratio of medians with a paired-round bootstrap interval. Exit 0 when every run
passed (or with -i), 1 when a run failed, 2 on a flag error.

examples:
  pipeline measure -- sh -c 'echo hi'
  pipeline measure -w 3 -r 30 -- sleep 0.01 -- sleep 0.02
  pipeline measure --until decided -- sleep 0.01 -- sleep 0.02
  pipeline measure -n small -n large 'gzip -k -f small.bin' 'gzip -k -f large.bin'
  pipeline measure -P ms 10 30 -D 10 'sleep 0.0{ms}' --export-markdown scan.md`;

function count(flags: ParsedArgs['flags'], name: string, min: number, fallback: number): number;
function count(flags: ParsedArgs['flags'], name: string, min: number, fallback: null): number | null;
function count(flags: ParsedArgs['flags'], name: string, min: number, fallback: number | null): number | null {
  const v = flags[name];
  if (v === undefined) return fallback;
  const text = String(v);
  if (!/^\d+$/.test(text) || Number(text) < min)
    throw new UserError(`must be an integer of at least ${min}, got ${JSON.stringify(text)}`, { key: `--${name}` });
  return Number(text);
}

function str(flags: ParsedArgs['flags'], name: string): string | undefined {
  const v = flags[name];
  return typeof v === 'string' ? v : undefined;
}

function list(flags: ParsedArgs['flags'], name: string): string[] {
  const v = flags[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

/** "5%" or "0.05" as 0.05. */
function share(flags: ParsedArgs['flags'], name: string, fallback: number): number {
  const text = str(flags, name);
  if (text === undefined) return fallback;
  const m = /^(\d+(?:\.\d+)?)(%?)$/.exec(text);
  const v = m ? Number(m[1]) / (m[2] ? 100 : 1) : Number.NaN;
  if (!(v > 0 && v < 1)) throw new UserError(`must be a share between 0 and 1 such as 5% or 0.05, got ${JSON.stringify(text)}`, { key: `--${name}` });
  return v;
}

/** Pure: the stopping rule of --until decided / --precision, or null. */
export function untilRuleOf(flags: ParsedArgs['flags']): UntilRule | null {
  const until = str(flags, 'until');
  const precision = str(flags, 'precision');
  if (until !== undefined && until !== 'decided') throw new UserError(`must be decided, got ${JSON.stringify(until)}`, { key: '--until' });
  if (until !== undefined && precision !== undefined) throw new UserError('conflicts with --precision', { key: '--until' }, 'give one of them');
  if (until === undefined && precision === undefined) {
    if (flags['block'] !== undefined) throw new UserError('needs --until decided or --precision', { key: '--block' });
    return null;
  }
  const flag = until !== undefined ? '--until' : '--precision';
  if (flags['runs'] !== undefined) throw new UserError(`conflicts with ${flag}, which chooses the rounds`, { key: '--runs' }, 'bound them with --max-runs');
  const blockRounds = count(flags, 'block', 1, DEFAULT_BLOCK_ROUNDS);
  const maxRuns = count(flags, 'max-runs', 1, null);
  const maxSessions = maxRuns === null ? defaultSequentialPlan.maxSessions : Math.floor(maxRuns / blockRounds);
  if (maxSessions < defaultSequentialPlan.minSessions) {
    throw new UserError(
      `allows ${maxSessions} looks of ${blockRounds} rounds; ${flag} needs at least ${defaultSequentialPlan.minSessions}`,
      { key: '--max-runs' },
      `give at least ${defaultSequentialPlan.minSessions * blockRounds}, or a smaller --block`,
    );
  }
  return {
    kind: until !== undefined ? 'decided' : 'precision',
    marginRelative: share(flags, 'margin', 0.05),
    relativeHalfWidth: precision !== undefined ? share(flags, 'precision', 0.02) : Number.POSITIVE_INFINITY,
    blockRounds,
    plan: { ...defaultSequentialPlan, maxSessions },
  };
}

/** Pure: the plan of a measurement from the parsed flags (every error names its flag). */
export function planOf(parsed: ParsedArgs, env: Record<string, string>, cwd: string): MeasurePlan {
  const { flags } = parsed;
  const shellFlag = str(flags, 'shell');
  if (shellFlag !== undefined && flags['no-shell'] === true && shellFlag !== 'none')
    throw new UserError(`conflicts with -N/--no-shell`, { key: '--shell' }, 'give one of them');
  const shell = shellFlag ?? 'none';
  if (shell === '') throw new UserError('needs a shell or none', { key: '--shell' }, 'e.g. --shell sh');
  // In the order they were typed: strings come before the first --.
  const sources: CommandSource[] = [
    ...parsed.positional.map((text): CommandSource => ({ kind: 'string', text })),
    ...argvGroups(parsed.rest).map((argv): CommandSource => ({ kind: 'argv', argv })),
  ];
  const parameters: Parameter[] = [];
  const scan = str(flags, 'parameter-scan');
  if (scan !== undefined) {
    const [name, lo, hi] = tupleValues(scan) as [string, string, string];
    parameters.push(scanValues(name, lo, hi, str(flags, 'parameter-step-size')));
  } else if (flags['parameter-step-size'] !== undefined) {
    throw new UserError('needs --parameter-scan', { key: '--parameter-step-size' }, 'e.g. -P n 1 10 -D 2');
  }
  for (const l of list(flags, 'parameter-list')) {
    const [name, values] = tupleValues(l) as [string, string];
    parameters.push(listValues(name, values));
  }
  const commands = buildCommands(sources, { names: list(flags, 'command-name'), shell, parameters });
  const perCommand = (name: string): string[][] | null => {
    const texts = list(flags, name);
    if (texts.length === 0) return null;
    if (texts.length !== 1 && texts.length !== sources.length) {
      throw new UserError(
        `given ${texts.length} times for ${sources.length} commands`,
        { key: `--${name}` },
        'give it once for all commands or once per command',
      );
    }
    // One argv per expanded command, with its parameters substituted.
    const sourceOf = (c: MeasuredCommand): number => Math.floor(c.index / Math.max(1, commands.length / sources.length));
    return commands.map((c) => toArgv(substitute(texts[texts.length === 1 ? 0 : sourceOf(c)]!, c.parameters), shell, `--${name}`));
  };
  const marker = str(flags, 'marker');
  if (marker !== undefined && (marker === '' || /[\r\n]/.test(marker))) throw new UserError('must be one non-empty line of text', { key: '--marker' });
  const readyFlag = str(flags, 'ready');
  if (readyFlag !== undefined && !['none', 'first-line', 'marker'].includes(readyFlag)) {
    throw new UserError(`must be none, first-line or marker, got ${JSON.stringify(readyFlag)}`, { key: '--ready' });
  }
  const ready = (readyFlag ?? (marker !== undefined ? 'marker' : 'none')) as ReadyMode;
  if (ready === 'marker' && marker === undefined) throw new UserError('marker needs --marker TEXT', { key: '--ready' }, 'e.g. --marker READY');
  const timeoutText = str(flags, 'timeout');
  const timeoutS = timeoutText === undefined ? 600 : Number(timeoutText);
  if (timeoutText !== undefined && (!/^\d+(\.\d+)?$/.test(timeoutText) || !(timeoutS > 0))) {
    throw new UserError(`must be a positive number of seconds, got ${JSON.stringify(timeoutText)}`, { key: '--timeout' });
  }
  const concurrency = count(flags, 'concurrency', 1, 1);
  if (concurrency > MAX_BURST)
    throw new UserError(`must be at most ${MAX_BURST} (the launch helper's largest burst), got ${concurrency}`, { key: '--concurrency' });
  const minRuns = count(flags, 'min-runs', 1, 10);
  const maxRuns = count(flags, 'max-runs', 1, null);
  if (maxRuns !== null && maxRuns < minRuns) throw new UserError(`is below --min-runs (${minRuns})`, { key: '--max-runs' });
  return {
    commands,
    warmup: count(flags, 'warmup', 0, 0),
    runs: count(flags, 'runs', 1, null),
    minRuns,
    maxRuns,
    prepare: perCommand('prepare'),
    setup: perCommand('setup'),
    cleanup: perCommand('cleanup'),
    ready,
    marker: marker ?? 'MARKER',
    timeoutMs: timeoutS * 1000,
    seed: str(flags, 'seed') ?? '1',
    ignoreFailure: flags['ignore-failure'] === true,
    env,
    cwd,
    until: untilRuleOf(flags),
    concurrency,
  };
}

function timeUnitOf(flags: ParsedArgs['flags']): TimeUnit | null {
  const u = str(flags, 'time-unit');
  if (u === undefined) return null;
  if (!TIME_UNITS.includes(u as TimeUnit)) throw new UserError(`must be ${TIME_UNITS.join(', ')}, got ${JSON.stringify(u)}`, { key: '--time-unit' });
  return u as TimeUnit;
}

function inheritedEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
}

export const measureCommand: CliCommand = {
  summary: 'measure commands ad hoc, like hyperfine, and compare them',
  usage: USAGE,
  about: ABOUT,
  flags: FLAGS,
  positionals: true,
  run: async (parsed) => {
    const plan = planOf(parsed, inheritedEnv(), process.cwd());
    const fixedUnit = timeUnitOf(parsed.flags);
    const recordDir = str(parsed.flags, 'record');
    const record =
      recordDir === undefined
        ? undefined
        : await MeasureRecord.open(
            resolve(recordDir),
            {
              commands: plan.commands.map((c) => ({ name: c.name, argv: c.argv })),
              seed: plan.seed,
              warmup: plan.warmup,
              ready: plan.ready,
              marker: plan.ready === 'marker' ? plan.marker : null,
              ...((plan.concurrency ?? 1) > 1 ? { concurrency: plan.concurrency } : {}),
            },
            plan.commands,
          );
    const live = process.stderr.isTTY === true;
    // At most 10 redraws a second: terminal writes between launches are work the launches would feel.
    let drawnAt = -Infinity;
    const draw = (p: MeasureProgress): void => {
      const t = performance.now();
      if (t - drawnAt < 100) return;
      drawnAt = t;
      process.stderr.write(`\r\x1b[K${formatMeasureProgress(p)}`);
    };
    let outcome: MeasureOutcome | undefined;
    try {
      outcome = await runMeasurement(plan, { record, onProgress: live ? draw : undefined });
    } finally {
      if (live) process.stderr.write('\r\x1b[K');
      if (!outcome) await record?.close();
    }
    const csv = await record?.finish();
    const summary = summarizeMeasurement(
      plan.commands,
      outcome.observations,
      { resamples: 5000, confidence: 0.95, seed: plan.seed },
      { metric: comparedMetric(plan.ready), marginRelative: plan.until?.marginRelative ?? share(parsed.flags, 'margin', 0.05) },
      plan.concurrency,
    );
    const unit = fixedUnit ?? autoUnit(summary.commands.flatMap((s) => (s.completionMs ? [s.completionMs.median] : [])));
    const json = exportJson(summary, plan.commands, outcome.observations, outcome.look);
    if (parsed.flags['json'] === true) process.stdout.write(json);
    else {
      process.stdout.write(
        renderText(summary, {
          commands: plan.commands,
          unit,
          ready: plan.ready,
          marker: plan.marker,
          warmup: plan.warmup,
          rounds: outcome.rounds,
          resumedRounds: outcome.resumedRounds,
          seed: plan.seed,
          until: plan.until ? { rule: plan.until, look: outcome.look } : null,
        }),
      );
      if (csv) process.stdout.write(`\nrecord: ${record!.dir}/samples.duckdb; for a report, an import-samples stage reads ${csv}\n`);
    }
    const out = (flag: string, text: () => string): void => {
      const file = str(parsed.flags, flag);
      if (file !== undefined) writeFileSync(file, text());
    };
    out('export-json', () => json);
    out('export-csv', () => exportCsv(summary, plan.commands));
    out('export-markdown', () => exportMarkdown(summary, unit));
    return summary.commands.some((s) => s.failures > 0) && !plan.ignoreFailure ? 1 : 0;
  },
};
