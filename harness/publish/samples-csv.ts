// samples.csv: every launch with the sample schema's columns, in run order,
// readable by the import-samples stage. Numbers are written in JavaScript's
// shortest round-trip form, so a re-import gives the same doubles and thus
// byte-identical statistics.
import { sampleColumns, type SampleColumn, type SampleRow } from '../db/sample-columns.js';
import { csv } from './format-number.js';

export const samplesCsvFile = 'samples.csv';

/** `extra`: the experiment's declared measure and sweep columns, written after the shared ones. */
export function samplesCsv(rows: readonly SampleRow[], extra: readonly SampleColumn[] = []): string {
  const present = [...sampleColumns, ...extra].filter((c) => rows.some((r) => c.name in r)).map((c) => c.name);
  const header = present.length ? present : sampleColumns.map((c) => c.name);
  return csv(
    header,
    rows.map((r) => header.map((n) => r[n] ?? null)),
  );
}
