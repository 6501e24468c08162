// Writes sample rows into a new samples.duckdb (table `samples`), the file the
// sample stage writes; used by import-samples, tests and benchmarks.
//
// The rows go through a CSV file beside the database that DuckDB reads in one
// statement (read_csv with the table's own column types): 10^6 rows in
// seconds, where INSERTs with bound parameters took minutes for 10^5. In the
// file every string is quoted, NULL is an unquoted \N, and a number is
// written as JavaScript's shortest round-trip form, which DuckDB parses back
// to the same double.
import { rm, writeFile } from 'node:fs/promises';
import { Database } from '../db/duckdb.js';
import { sampleColumns, samplesTableColumnsSql, type SampleValue } from '../db/sample-columns.js';
import { cellsOf, type SampleRow } from '../db/sample-row.js';

function csvField(v: SampleValue): string {
  if (v === null) return '\\N';
  if (typeof v === 'string') return `"${v.replace(/"/g, '""')}"`;
  return String(v);
}

const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`;

export async function writeSamplesTable(file: string, rows: readonly SampleRow[]): Promise<void> {
  const csv = `${file}.rows.csv`;
  const lines: string[] = [];
  for (const row of rows) lines.push(sampleColumns.map((c) => csvField(cellsOf(row)[c.name] ?? c.default ?? null)).join(','));
  await writeFile(csv, lines.length ? lines.join('\n') + '\n' : '');
  const db = await Database.open(file);
  try {
    await db.exec(`CREATE TABLE samples (${samplesTableColumnsSql()})`);
    if (rows.length) {
      const types = sampleColumns.map((c) => `${sqlString(c.name)}: ${sqlString(c.sqlType)}`).join(', ');
      await db.exec(
        `INSERT INTO samples SELECT * FROM read_csv(${sqlString(csv)}, header = false, delim = ',', quote = '"', escape = '"', nullstr = '\\N', columns = {${types}})`,
      );
    }
    await db.checkpoint();
  } finally {
    db.close();
    await rm(csv, { force: true });
  }
}
