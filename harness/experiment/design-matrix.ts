// Pure: the cells of a parameter sweep (design.matrix). A block maps each
// dimension to its values and contributes every combination of them; the
// experiment's cells are the union of the blocks' cells, in order of first
// appearance, each once. A cell's id names its values in dimension order of the
// first block that produced it, e.g. `total_mb=100,file_count=100`.

export type DimensionValue = number | string;
export type MatrixBlock = Record<string, readonly DimensionValue[]>;

export interface Cell {
  /** Stable text id, `dim=value,...` in sorted dimension order. */
  id: string;
  values: Record<string, DimensionValue>;
}

export function cellId(values: Record<string, DimensionValue>): string {
  return Object.keys(values)
    .sort()
    .map((k) => `${k}=${values[k]}`)
    .join(',');
}

function product(block: MatrixBlock): Record<string, DimensionValue>[] {
  let rows: Record<string, DimensionValue>[] = [{}];
  for (const [dim, values] of Object.entries(block)) {
    rows = rows.flatMap((row) => values.map((v) => ({ ...row, [dim]: v })));
  }
  return rows;
}

/** Cells of the matrix; an empty matrix is one cell without dimensions. */
export function matrixCells(blocks: readonly MatrixBlock[]): Cell[] {
  if (blocks.length === 0) return [{ id: '', values: {} }];
  const seen = new Set<string>();
  const cells: Cell[] = [];
  for (const block of blocks) {
    for (const values of product(block)) {
      const id = cellId(values);
      if (seen.has(id)) continue;
      seen.add(id);
      cells.push({ id, values });
    }
  }
  return cells;
}

/** Every dimension named by any block, in order of first appearance. */
export function matrixDimensions(blocks: readonly MatrixBlock[]): string[] {
  const dims: string[] = [];
  for (const b of blocks) for (const d of Object.keys(b)) if (!dims.includes(d)) dims.push(d);
  return dims;
}
