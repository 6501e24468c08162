// Pure: the commands `pipeline measure` runs. Each source (an argv after `--`,
// or a command string) is expanded once per combination of parameter values
// (`--parameter-scan`, `--parameter-list`), with `{NAME}` replaced in every
// word, in the string and in its `-n` label, as hyperfine does.
import { UserError } from '../errors.js';
import { shellWords } from './shell-words.js';
import { shellLine as shellJoin } from '../process/shell-quote.js';

export type CommandSource = { kind: 'argv'; argv: string[] } | { kind: 'string'; text: string };

export interface Parameter {
  name: string;
  values: string[];
}

export interface MeasuredCommand {
  /** Position in the command list, from 0. */
  index: number;
  /** The -n label (parameters substituted), or the command as typed. */
  name: string;
  argv: string[];
  parameters: Record<string, string>;
}

/** `none` splits a string into words without a shell (-N); otherwise the string runs as `SHELL -c STRING`. */
export type Shell = 'none' | string;

export function toArgv(text: string, shell: Shell, flag: string): string[] {
  if (shell !== 'none') return [shell, '-c', text];
  const split = shellWords(text);
  if ('problem' in split) throw new UserError(`cannot split ${JSON.stringify(text)}: ${split.problem}`, { key: flag }, 'fix the quoting, or use --shell sh');
  if (split.words.length === 0) throw new UserError('is an empty command', { key: flag }, 'give the program to run');
  return split.words;
}

/** Values of `--parameter-scan NAME LO HI [--parameter-step-size D]`, LO to HI inclusive. */
export function scanValues(name: string, lo: string, hi: string, step: string | undefined): Parameter {
  const key = '--parameter-scan';
  const num = (text: string, what: string): number => {
    const v = Number(text);
    if (text.trim() === '' || !Number.isFinite(v))
      throw new UserError(`${what} must be a number, got ${JSON.stringify(text)}`, { key }, `e.g. ${key} ${name} 1 10`);
    return v;
  };
  const from = num(lo, 'LO');
  const to = num(hi, 'HI');
  const delta = step === undefined ? 1 : num(step, '--parameter-step-size');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UserError(`parameter name ${JSON.stringify(name)} must be letters, digits and _`, { key });
  if (step === undefined && (!Number.isInteger(from) || !Number.isInteger(to))) {
    throw new UserError('LO and HI must be integers without --parameter-step-size', { key }, 'add --parameter-step-size for decimal steps');
  }
  if (!(delta > 0)) throw new UserError('must be positive', { key: '--parameter-step-size' });
  if (to < from) throw new UserError(`HI (${hi}) is below LO (${lo})`, { key }, `e.g. ${key} ${name} ${hi} ${lo}`);
  const count = Math.floor((to - from) / delta + 1e-9) + 1;
  if (count > 10000) throw new UserError(`would make ${count} commands`, { key }, 'use a larger --parameter-step-size');
  const decimals = Math.max(decimalsOf(lo), decimalsOf(step ?? '1'));
  return { name, values: Array.from({ length: count }, (_, i) => (from + i * delta).toFixed(decimals)) };
}

function decimalsOf(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

export function listValues(name: string, csv: string): Parameter {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new UserError(`parameter name ${JSON.stringify(name)} must be letters, digits and _`, { key: '--parameter-list' });
  const values = csv.split(',');
  if (values.some((v) => v === ''))
    throw new UserError(`has an empty value in ${JSON.stringify(csv)}`, { key: '--parameter-list' }, 'e.g. --parameter-list size 1,10,100');
  return { name, values };
}

/** Every combination of the parameters' values (one empty combination without parameters). */
function combinations(parameters: readonly Parameter[]): Record<string, string>[] {
  let out: Record<string, string>[] = [{}];
  for (const p of parameters) out = out.flatMap((c) => p.values.map((v) => ({ ...c, [p.name]: v })));
  return out;
}

export function substitute(text: string, values: Record<string, string>): string {
  return text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name: string) => values[name] ?? m);
}

export function buildCommands(
  sources: readonly CommandSource[],
  opts: { names: readonly string[]; shell: Shell; parameters: readonly Parameter[] },
): MeasuredCommand[] {
  if (sources.length === 0) {
    throw new UserError(
      'no command to measure',
      { key: 'measure' },
      "give it after --, e.g. pipeline measure -- sleep 0.1, or as a string: pipeline measure 'sleep 0.1'",
    );
  }
  if (opts.names.length > sources.length) {
    throw new UserError(`${opts.names.length} names for ${sources.length} command(s)`, { key: '--command-name' }, 'give at most one -n per command');
  }
  const names = new Set(opts.parameters.map((p) => p.name));
  if (names.size < opts.parameters.length) throw new UserError('the same parameter is given twice', { key: '--parameter-list' });
  const out: MeasuredCommand[] = [];
  for (const [si, source] of sources.entries()) {
    for (const values of combinations(opts.parameters)) {
      const argv =
        source.kind === 'argv' ? source.argv.map((w) => substitute(w, values)) : toArgv(substitute(source.text, values), opts.shell, `command ${si + 1}`);
      const typed = source.kind === 'argv' ? shellJoin(argv) : substitute(source.text, values);
      const label = opts.names[si];
      out.push({ index: out.length, name: label === undefined ? typed : substitute(label, values), argv, parameters: values });
    }
  }
  return out;
}

/** Splits what follows the first `--` into argv groups at each further `--`. */
export function argvGroups(rest: readonly string[]): string[][] {
  const groups: string[][] = [[]];
  for (const a of rest) {
    if (a === '--') groups.push([]);
    else groups[groups.length - 1]!.push(a);
  }
  return groups.filter((g) => g.length > 0);
}
