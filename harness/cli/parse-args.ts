// A small flag parser for the thin CLI: known flags only, each error names the flag.
import { UserError } from '../errors.js';

export interface FlagSpec {
  /** flag name without dashes -> kind */
  [name: string]: 'boolean' | 'string' | 'list';
}

export interface ParsedArgs {
  flags: Record<string, string | boolean | string[]>;
  positional: string[];
  /** Everything after `--`. */
  rest: string[];
}

export function parseArgs(args: readonly string[], spec: FlagSpec, aliases: Record<string, string> = {}): ParsedArgs {
  const flags: ParsedArgs['flags'] = {};
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return { flags, positional, rest: args.slice(i + 1) };
    if (!a.startsWith('-') || a === '-') {
      positional.push(a);
      continue;
    }
    let name = a.replace(/^--?/, '');
    let inline: string | undefined;
    const eq = name.indexOf('=');
    if (eq >= 0) {
      inline = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    name = aliases[name] ?? name;
    const kind = spec[name];
    if (!kind) throw new UserError(`unknown flag`, { key: a }, `known flags: ${Object.keys(spec).map((f) => '--' + f).join(', ')}`);
    if (kind === 'boolean') {
      if (inline !== undefined) throw new UserError('takes no value', { key: `--${name}` }, `write --${name} alone`);
      flags[name] = true;
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) throw new UserError('needs a value', { key: `--${name}` }, `e.g. --${name} VALUE`);
    if (kind === 'string') flags[name] = value;
    else {
      const list = (flags[name] as string[] | undefined) ?? [];
      list.push(value);
      flags[name] = list;
    }
  }
  return { flags, positional, rest: [] };
}

/** Comma-separated list flags (`--only a,b --only c`) flattened. */
export function listFlag(v: string | boolean | string[] | undefined): string[] {
  if (v === undefined || typeof v === 'boolean') return [];
  const items = Array.isArray(v) ? v : [v];
  return items.flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);
}
