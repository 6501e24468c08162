// The rows of the effect report as effects-analyze writes them (effects.json)
// and the report reads them: a measured row with its cell and outcome, or a
// not-runnable row with the doctor's reasons (never given numbers).
import type { EffectRow } from '../config/effects-section.js';
import type { EffectCell } from './effect-cell.js';
import type { DropVerdict } from './tried-and-dropped.js';

export interface MeasuredRow {
  row: EffectRow;
  state: 'measured';
  cell: EffectCell;
  verdict: DropVerdict;
  failures: { before: number; after: number };
  /** KEY=NUMBER facts printed by the row's setup (e.g. image_bytes). */
  facts: Record<string, number>;
}

export interface NotRunnableRow {
  row: EffectRow;
  state: 'not-runnable';
  reasons: string[];
}

export type ReportedRow = MeasuredRow | NotRunnableRow;
