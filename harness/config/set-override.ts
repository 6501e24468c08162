// `--set KEY=VALUE` overrides: the value is read as a YAML scalar or flow
// collection (so `3`, `true`, `[a, b]` and `{x: 1}` work), applied to the
// parsed config before validation, and therefore hashed like any other input.
import { parse } from 'yaml';
import { UserError } from '../errors.js';

export interface Override {
  path: string[];
  value: unknown;
  text: string;
}

export function parseOverride(text: string): Override {
  const eq = text.indexOf('=');
  if (eq <= 0) {
    throw new UserError(`expected KEY=VALUE, got '${text}'`, { key: '--set' }, 'e.g. --set design.rounds=3');
  }
  const keyText = text.slice(0, eq).trim();
  const path = keyText.split('.');
  if (path.some((p) => p === '' || !/^[A-Za-z0-9_-]+$/.test(p))) {
    throw new UserError(
      `'${keyText}' is not a dotted key path`,
      { key: '--set' },
      'use letters, digits, _ and - separated by dots, e.g. analysis.bootstrap.resamples=2000',
    );
  }
  if (path[0] === 'stages') {
    throw new UserError(`stages cannot be changed with --set`, { key: '--set' }, 'edit the pipeline file to change the graph');
  }
  let value: unknown;
  try {
    value = parse(text.slice(eq + 1));
  } catch (e) {
    throw new UserError(
      `value of ${keyText} is not valid YAML: ${(e as Error).message.split('\n')[0]}`,
      { key: '--set' },
      'quote strings with special characters',
    );
  }
  return { path, value: value === undefined ? null : value, text };
}

/** Returns a copy of `config` with the override applied (intermediate objects created). */
export function applyOverride(config: unknown, o: Override): unknown {
  const root = structuredClone(config ?? {}) as Record<string, unknown>;
  let cur: Record<string, unknown> = root;
  for (let i = 0; i < o.path.length - 1; i++) {
    const seg = o.path[i]!;
    const next = cur[seg];
    if (next === undefined || next === null) {
      cur[seg] = {};
    } else if (typeof next !== 'object' || Array.isArray(next)) {
      throw new UserError(`${o.path.slice(0, i + 1).join('.')} is not a mapping, cannot set ${o.path.join('.')}`, { key: '--set' }, 'check the key path');
    }
    cur = cur[seg] as Record<string, unknown>;
  }
  cur[o.path[o.path.length - 1]!] = o.value;
  return root;
}
