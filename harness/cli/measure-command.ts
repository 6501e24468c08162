// `pipeline measure [--runs N] [--warmup N] [--marker TEXT] [--timeout S] [--json] -- CMD ARGS...`
// Thin: parses flags, calls measure(), prints a table (or JSON). Returns the exit
// code: 0 when every run passed, 1 when some failed.

import { DEFAULT_MARKER, measure, type MeasureSample, type MeasureSummary, type Spread } from '../launch/measure.js';
import { UserError } from '../errors.js';

export interface MeasureFlags {
  runs: number;
  warmup: number;
  marker: string;
  timeoutS: number;
  json: boolean;
  argv: string[];
}

const USAGE = 'pipeline measure [--runs N] [--warmup N] [--marker TEXT] [--timeout S] [--json] -- CMD ARGS...';

/** Pure: flags of `pipeline measure`. Throws a UserError naming the bad flag. */
export function parseMeasureFlags(args: readonly string[]): MeasureFlags {
  const flags: MeasureFlags = { runs: 10, warmup: 0, marker: DEFAULT_MARKER, timeoutS: 60, json: false, argv: [] };
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = arg.startsWith('--') && eq > 0 ? arg.slice(eq + 1) : undefined;
    const value = (): string => {
      if (inline !== undefined) return inline;
      const v = args[i + 1];
      if (v === undefined || v === '--') throw new UserError('needs a value', { key: name }, `usage: ${USAGE}`);
      i++;
      return v;
    };
    switch (name) {
      case '--runs':
        flags.runs = integer(name, value(), 1);
        break;
      case '--warmup':
        flags.warmup = integer(name, value(), 0);
        break;
      case '--marker': {
        const m = value();
        if (m === '' || /[\r\n]/.test(m)) throw new UserError('must be one non-empty line of text', { key: '--marker' });
        flags.marker = m;
        break;
      }
      case '--timeout': {
        const v = value();
        const s = Number(v);
        if (!/^\d+(\.\d+)?$/.test(v) || !(s > 0)) {
          throw new UserError(`must be a positive number of seconds, got ${JSON.stringify(v)}`, { key: '--timeout' });
        }
        flags.timeoutS = s;
        break;
      }
      case '--json':
        if (inline !== undefined) throw new UserError('takes no value', { key: '--json' });
        flags.json = true;
        break;
      default:
        throw new UserError('unknown flag', { key: name }, `usage: ${USAGE}`);
    }
  }
  flags.argv = args.slice(i + 1);
  if (i >= args.length || flags.argv.length === 0) {
    throw new UserError('no command to measure: put it after --', { key: '--' }, `usage: ${USAGE}`);
  }
  return flags;
}

function integer(flag: string, text: string, min: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min) {
    throw new UserError(`must be an integer of at least ${min}, got ${JSON.stringify(text)}`, { key: flag });
  }
  return Number(text);
}

export async function measureCommand(args: string[]): Promise<number> {
  const flags = parseMeasureFlags(args);
  const live = !flags.json && process.stderr.isTTY === true;
  const { samples, summary } = await measure({
    argv: flags.argv,
    runs: flags.runs,
    warmup: flags.warmup,
    marker: flags.marker,
    timeoutMs: flags.timeoutS * 1000,
    onLaunch: live
      ? (done, total) => process.stderr.write(`\r  launch ${done}/${total}`)
      : undefined,
  });
  if (live) process.stderr.write('\r\x1b[K');
  if (flags.json) {
    process.stdout.write(JSON.stringify({ command: flags.argv, marker: flags.marker, samples, summary }, null, 2) + '\n');
  } else {
    process.stdout.write(renderTable(flags, samples, summary));
  }
  return summary.failures > 0 ? 1 : 0;
}

/** Pure: the human table. */
export function renderTable(flags: MeasureFlags, samples: readonly MeasureSample[], summary: MeasureSummary): string {
  const lines: string[] = [];
  lines.push(`Command: ${flags.argv.map(shellQuote).join(' ')}`);
  lines.push(`  ${summary.runs} runs, ${summary.warmup} warmup, ${summary.failures} failed; marker ${JSON.stringify(flags.marker)}`);
  lines.push('');
  lines.push(`  ${pad('', 12)}${pad('median', 12)}${pad('P95', 12)}${pad('min', 12)}${pad('max', 12)}`);
  const row = (label: string, s: Spread | null): string =>
    s
      ? `  ${pad(label, 12)}${pad(ms(s.median), 12)}${pad(ms(s.p95), 12)}${pad(ms(s.min), 12)}${pad(ms(s.max), 12)}`
      : `  ${pad(label, 12)}no successful runs`;
  lines.push(row('Ready', summary.readyMs));
  lines.push(row('Completion', summary.completionMs));
  if (summary.failures > 0) {
    lines.push('');
    lines.push(`  ${summary.failures} of ${samples.length} runs failed; first: ${summary.firstFailure ?? 'unknown'}`);
  }
  return lines.join('\n') + '\n';
}

function ms(v: number): string {
  return `${v.toFixed(v < 10 ? 3 : v < 100 ? 2 : 1)} ms`;
}

function pad(s: string, n: number): string {
  return s.length >= n ? s + ' ' : s + ' '.repeat(n - s.length);
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
