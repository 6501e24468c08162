// samples.csv: every launch with the sample schema's columns, in run order,
// readable by the import-samples stage (the report stages' samples.csv and
// `measure`'s DIR/samples.csv alike). Numbers are written in JavaScript's
// shortest round-trip form, so a re-import gives the same doubles and thus
// byte-identical statistics.
import { csv } from './csv-text.js';
import { sampleColumns, type SampleColumn } from './sample-columns.js';
import { cellsOf, type SampleRow } from './sample-row.js';

export const samplesCsvFile = 'samples.csv';

/**
 * `extra`: the experiment's declared measure and sweep columns, written after
 * the shared ones. Columns no row has are left out, unless `allColumns`
 * (every column of the sample schema, as `measure` writes it).
 */
export function samplesCsv(rows: readonly SampleRow[], extra: readonly SampleColumn[] = [], opts: { allColumns?: boolean } = {}): string {
  const columns = [...sampleColumns, ...extra];
  const present = opts.allColumns ? columns.map((c) => c.name) : columns.filter((c) => rows.some((r) => c.name in r)).map((c) => c.name);
  const header = present.length ? present : sampleColumns.map((c) => c.name);
  return csv(
    header,
    rows.map((r) => header.map((n) => cellsOf(r)[n] ?? null)),
  );
}
