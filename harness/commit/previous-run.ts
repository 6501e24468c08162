// The commit-diff report against the archived previous run of the experiment
// (issue 33: the many-file initial result went from ×0.43/×0.74 to
// ×1.37/×1.34 between two runs and the report said nothing). The previous run
// is an archived run folder (reports/<experiment>/runs/<date>-<digest>/, as
// `history` and `compare` read them) named by the report stage's
// `previous_run`; its differences.csv gives, per cell and commit, the ratio,
// its interval and whether it was detected. Each cell's direction against the
// previous run is the one vocabulary of analysis/direction-status.ts (held,
// changed, lost, gained); a verdict that did not hold gets a sentence.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { directionStatus, type DirectionStatus } from '../analysis/direction-status.js';
import { parseCsvTable } from '../compare/csv-table.js';
import type { CellRatio } from './commit-analysis.js';

export interface PreviousRatio {
  cell: string;
  state: string;
  value: number;
  low: number | null;
  high: number | null;
  detected: boolean;
}

export interface PreviousRun {
  /** The archive folder's name: its date and run digest. */
  name: string;
  ratios: PreviousRatio[];
}

export interface VerdictChange {
  cell: string;
  dims: Record<string, number>;
  state: string;
  status: Exclude<DirectionStatus, 'held'>;
  before: PreviousRatio;
  now: { value: number; low: number | null; high: number | null; detected: boolean };
}

const numOr = (s: string | undefined): number | null => (s === undefined || s === '' ? null : Number(s));

/** Pure: the naive/native completion rows of a differences.csv text. */
export function previousRatios(differencesCsv: string): PreviousRatio[] {
  return parseCsvTable(differencesCsv)
    .rows.filter((r) => r['a'] === 'naive' && r['b'] === 'native' && (r['metric'] ?? 'completion') === 'completion' && r['value'] !== '')
    .map((r) => ({
      cell: r['cohort']!,
      state: r['state']!,
      value: Number(r['value']),
      low: numOr(r['low']),
      high: numOr(r['high']),
      detected: r['detected'] === 'true',
    }));
}

/** The archived run in `folder` (effects: reads its differences.csv); null when the folder holds none. */
export function readPreviousRun(folder: string): PreviousRun | null {
  const file = join(folder, 'differences.csv');
  if (!existsSync(file)) return null;
  return { name: basename(folder.replace(/\/+$/, '')), ratios: previousRatios(readFileSync(file, 'utf8')) };
}

const sign = (detected: boolean, value: number): -1 | 0 | 1 => (!detected ? 0 : value > 1 ? 1 : value < 1 ? -1 : 0);

/** Pure: every cell and commit of this run whose verdict did not hold against the previous run. */
export function verdictChanges(ratios: readonly CellRatio[], previous: PreviousRun): VerdictChange[] {
  const out: VerdictChange[] = [];
  for (const r of ratios) {
    const c = r.comparison;
    if (c.observed === null) continue;
    const before = previous.ratios.find((p) => p.cell === r.cell && p.state === r.state);
    if (!before) continue;
    const status = directionStatus(sign(before.detected, before.value), sign(c.findings.detected, c.observed));
    if (status === 'held') continue;
    out.push({
      cell: r.cell,
      dims: r.dims,
      state: r.state,
      status,
      before,
      now: { value: c.observed, low: c.low, high: c.high, detected: c.findings.detected },
    });
  }
  return out;
}
