// The order of a series: by run time (default), by the user's label
// (`--by label`), or by the version of a pinned binary (`--by pins.runsc`).
// Versions and labels compare as text with numbers by value ("1.10" after
// "1.9"); runs without the label or binary come last, in time order. Pure.
import { UserError } from '../errors.js';
import type { HistoryRun } from './history-run.js';

const natural = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export function orderRuns(runs: readonly HistoryRun[], by: string): HistoryRun[] {
  const byTime = (a: HistoryRun, b: HistoryRun): number => a.time.localeCompare(b.time) || a.id.localeCompare(b.id);
  let keyOf: (r: HistoryRun) => string | null;
  if (by === 'time') keyOf = () => '';
  else if (by === 'label') keyOf = (r) => r.label;
  else if (by.startsWith('pins.') && by.length > 5) {
    const name = by.slice(5);
    keyOf = (r) => r.provenance.find((p) => p.kind === 'binary' && p.name === name)?.version ?? null;
    if (!runs.some((r) => keyOf(r) !== null)) {
      const names = [...new Set(runs.flatMap((r) => r.provenance.filter((p) => p.kind === 'binary').map((p) => p.name)))].sort();
      throw new UserError(`no run pins a binary named ${name}`, { key: '--by' }, `pinned binaries: ${names.join(', ') || 'none'}`);
    }
  } else throw new UserError(`cannot order by '${by}'`, { key: '--by' }, 'use time, label or pins.NAME (e.g. pins.runsc)');
  return [...runs].sort((a, b) => {
    const x = keyOf(a);
    const y = keyOf(b);
    if (x === null || y === null) return x === y ? byTime(a, b) : x === null ? 1 : -1;
    return natural.compare(x, y) || byTime(a, b);
  });
}
