// Pure: a matrix cell of the commit-diff experiment as a workload. Dimensions:
// total_mb (base data written by the initial container, MB = 1e6 bytes),
// file_count (files it is split into) and change_bytes (the incremental file).
import type { Cell } from '../experiment/design-matrix.js';
import type { WorkloadCell } from './commit-workload.js';

export const COMMIT_DIMENSIONS = ['total_mb', 'file_count', 'change_bytes'] as const;

export function workloadOf(cell: Cell): WorkloadCell {
  const num = (k: string): number => {
    const v = Number(cell.values[k]);
    if (!Number.isFinite(v) || v <= 0) throw new Error(`cell ${cell.id}: dimension ${k} must be a positive number`);
    return v;
  };
  return { totalBytes: Math.round(num('total_mb') * 1e6), fileCount: Math.round(num('file_count')), changeBytes: Math.round(num('change_bytes')) };
}

/** Pure: problems of a matrix for this experiment (missing dimensions), one line each. */
export function commitMatrixProblems(cells: readonly Cell[]): string[] {
  const out: string[] = [];
  for (const c of cells) for (const d of COMMIT_DIMENSIONS) if (c.values[d] === undefined) out.push(`cell ${c.id || '(empty)'} has no ${d}`);
  return out;
}
