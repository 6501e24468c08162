// The one flag parser of the CLI, over node:util parseArgs. A command declares
// its flags as data (kind, short letter, value name, help); the same data gives
// its `--help` text. Every error is a UserError naming the flag.
import { parseArgs as nodeParseArgs } from 'node:util';
import { UserError } from '../errors.js';

export type FlagKind = 'boolean' | 'string' | 'list';

export interface FlagDef {
  kind: FlagKind;
  /** One-letter alias, e.g. 'f' for -f. */
  short?: string;
  /** Values the flag takes at once (`--parameter-scan NAME LO HI` is 3); default 1. */
  arity?: number;
  /** Name of the value in the help text, e.g. FILE. */
  value?: string;
  help?: string;
}

export interface FlagSpec {
  /** flag name without dashes -> kind, or its full definition */
  [name: string]: FlagKind | FlagDef;
}

export interface ParsedArgs {
  flags: Record<string, string | boolean | string[]>;
  positional: string[];
  /** Everything after the first `--`. */
  rest: string[];
  /** -h or --help was given. */
  help: boolean;
}

/** Separates the values of a flag of arity > 1 inside one parseArgs value. */
const JOIN = '\u0000';

function defOf(v: FlagKind | FlagDef): FlagDef {
  return typeof v === 'string' ? { kind: v } : v;
}

/**
 * Parses `args`. `aliases` maps one-letter aliases to flag names (an older form
 * of FlagDef.short). `-h`/`--help` is always known.
 */
export function parseArgs(args: readonly string[], spec: FlagSpec, aliases: Record<string, string> = {}): ParsedArgs {
  const cut = args.indexOf('--');
  const head = cut >= 0 ? args.slice(0, cut) : [...args];
  const rest = cut >= 0 ? args.slice(cut + 1) : [];
  const defs = new Map(Object.entries(spec).map(([k, v]) => [k, defOf(v)]));
  for (const [letter, name] of Object.entries(aliases)) {
    const d = defs.get(name);
    if (d && !d.short) defs.set(name, { ...d, short: letter });
  }
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, d] of defs) {
    options[name] = {
      type: d.kind === 'boolean' ? 'boolean' : 'string',
      ...(d.kind === 'list' ? { multiple: true } : {}),
      ...(d.short ? { short: d.short } : {}),
    };
  }
  let parsed: ReturnType<typeof nodeParseArgs>;
  try {
    parsed = nodeParseArgs({ args: foldArity(head, defs), options, allowPositionals: true, strict: true });
  } catch (e) {
    throw userErrorOf(e as Error & { code?: string }, defs);
  }
  const flags: ParsedArgs['flags'] = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    if (name === 'help' || value === undefined) continue;
    const d = defs.get(name)!;
    if ((d.arity ?? 1) > 1) {
      const items = (Array.isArray(value) ? value : [value]) as string[];
      flags[name] = d.kind === 'list' ? items : items[items.length - 1]!;
      continue;
    }
    flags[name] = value as string | boolean | string[];
  }
  return { flags, positional: parsed.positionals, rest, help: parsed.values['help'] === true };
}

/** The values of a flag of arity N given as `--flag a b c`. */
export function tupleValues(raw: string): string[] {
  return raw.split(JOIN);
}

/** Turns `--flag a b c` (arity 3) into one `--flag=a\0b\0c` token for node:util. */
function foldArity(args: readonly string[], defs: Map<string, FlagDef>): string[] {
  const byToken = new Map<string, [string, FlagDef]>();
  for (const [name, d] of defs) {
    if ((d.arity ?? 1) <= 1) continue;
    byToken.set(`--${name}`, [name, d]);
    if (d.short) byToken.set(`-${d.short}`, [name, d]);
  }
  if (byToken.size === 0) return [...args];
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const hit = byToken.get(args[i]!);
    if (!hit) {
      out.push(args[i]!);
      continue;
    }
    const [name, d] = hit;
    const n = d.arity!;
    const values = args.slice(i + 1, i + 1 + n);
    if (values.length < n) throw new UserError(`needs ${n} values`, { key: `--${name}` }, `e.g. --${name} ${d.value ?? 'VALUE '.repeat(n).trim()}`);
    out.push(`--${name}=${values.join(JOIN)}`);
    i += n;
  }
  return out;
}

function userErrorOf(e: Error & { code?: string }, defs: Map<string, FlagDef>): Error {
  if (!e.code?.startsWith('ERR_PARSE_ARGS')) return e;
  // node:util quotes the option first: '--frob', '-r, --runs <value>', '--json'.
  const first = /'([^']*)'/.exec(e.message)?.[1] ?? '';
  const quoted = /--[\w-]+/.exec(first)?.[0] ?? /-\w/.exec(first)?.[0] ?? '';
  const name = quoted.replace(/^--?/, '');
  const def = defs.get(name) ?? [...defs.entries()].find(([, d]) => d.short === name)?.[1];
  const flagName = def ? `--${[...defs.entries()].find(([, d]) => d === def)![0]}` : quoted || 'flags';
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    return new UserError('unknown flag', { key: quoted || flagName }, `known flags: ${[...defs.keys()].map((f) => '--' + f).join(', ')}, --help`);
  }
  if (/does not take an argument/.test(e.message)) return new UserError('takes no value', { key: flagName }, `write ${flagName} alone`);
  if (/ambiguous/.test(e.message)) return new UserError('its value starts with a dash', { key: flagName }, `write ${flagName}=VALUE`);
  return new UserError('needs a value', { key: flagName }, `e.g. ${flagName} ${def?.value ?? 'VALUE'}`);
}

/** Comma-separated list flags (`--only a,b --only c`) flattened. */
export function listFlag(v: string | boolean | string[] | undefined): string[] {
  if (v === undefined || typeof v === 'boolean') return [];
  const items = Array.isArray(v) ? v : [v];
  return items
    .flatMap((x) => x.split(','))
    .map((x) => x.trim())
    .filter(Boolean);
}

/** The `--help` text of a command: usage, what it does, then one line per flag. */
export function formatHelp(usage: string, about: string, spec: FlagSpec): string {
  const rows: [string, string][] = Object.entries(spec).map(([name, v]) => {
    const d = defOf(v);
    const value = d.kind === 'boolean' ? '' : ` ${d.value ?? 'VALUE'}`;
    return [`${d.short ? `-${d.short}, ` : '    '}--${name}${value}`, `${d.help ?? ''}${d.kind === 'list' ? ' (repeatable)' : ''}`];
  });
  rows.push(['-h, --help', 'print this help and exit']);
  const width = Math.max(...rows.map(([l]) => l.length));
  return `usage: ${usage}\n\n${about.trim()}\n\nflags:\n${rows.map(([l, r]) => `  ${l.padEnd(width)}  ${r}`.trimEnd()).join('\n')}\n`;
}
