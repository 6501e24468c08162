// Writes sample rows into a new samples.duckdb (table `samples`), the file the
// sample stage writes; used by import-samples, tests and benchmarks.
import { Database } from '../db/duckdb.js';
import { sampleColumns, samplesTableColumnsSql, type SampleRow } from '../db/sample-columns.js';

const batchRows = 500;

export async function writeSamplesTable(file: string, rows: readonly SampleRow[]): Promise<void> {
  const db = await Database.open(file);
  try {
    await db.exec(`CREATE TABLE samples (${samplesTableColumnsSql()})`);
    await db.exec('BEGIN TRANSACTION');
    for (let start = 0; start < rows.length; start += batchRows) {
      const batch = rows.slice(start, start + batchRows);
      const params: (string | number | boolean | null)[] = [];
      const tuples = batch.map((row) => {
        const marks = sampleColumns.map((c) => {
          params.push(row[c.name] ?? c.default ?? null);
          return `$${params.length}`;
        });
        return `(${marks.join(', ')})`;
      });
      await db.exec(`INSERT INTO samples (${sampleColumns.map((c) => c.name).join(', ')}) VALUES ${tuples.join(', ')}`, params);
    }
    await db.exec('COMMIT');
    await db.checkpoint();
  } finally {
    db.close();
  }
}
