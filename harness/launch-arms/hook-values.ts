// Pure: the values an after_cold hook reports for its launch's row, one line
// `BENCHGRAPH-VALUE COLUMN N` each on its output. Only the hook columns of the
// sample schema are accepted, as non-negative integers: a hook cannot
// overwrite what the harness measured.
import type { LaunchMeasures } from '../db/sample-row.js';

export const HOOK_COLUMNS = ['files_read', 'image_files'] as const satisfies readonly (keyof LaunchMeasures)[];

export type HookValues = Partial<Record<(typeof HOOK_COLUMNS)[number], number>>;

/** The row's hook columns from a hook's output; a line naming another column, or not an integer, is an error. */
export function hookValues(output: string): HookValues {
  const values: HookValues = {};
  for (const line of output.split('\n')) {
    const m = /^BENCHGRAPH-VALUE\s+(\S+)\s+(\S+)\s*$/.exec(line);
    if (!m) continue;
    const [, column, text] = m;
    const hookColumn = HOOK_COLUMNS.find((c) => c === column);
    if (!hookColumn) throw new Error(`a hook may set ${HOOK_COLUMNS.join(' or ')}, not '${column}'`);
    if (!/^\d+$/.test(text!)) throw new Error(`${column} must be a non-negative integer, not '${text}'`);
    values[hookColumn] = Number(text);
  }
  return values;
}
