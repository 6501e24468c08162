// Whether a session journal file holds samples: a Slurm session job cancelled
// while it opened its journal leaves a DuckDB file without the samples table,
// and such a file has nothing to merge.
// (Kept out of sample-journal.ts, which every sample stage's key hashes: the
// check belongs to the Slurm executor alone.)
import { Database } from './duckdb.js';

export async function journalHasSamples(file: string): Promise<boolean> {
  const db = await Database.open(file, { readOnly: true });
  try {
    const row = await db.one(`SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'samples'`);
    return Number(row?.['n'] ?? 0) > 0;
  } finally {
    db.close();
  }
}
