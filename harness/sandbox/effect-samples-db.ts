// Writes the raw effect samples to DuckDB (table effect_samples, one row per
// formal launch, the columns of effect-samples-csv.ts), next to the CSV the
// analysis reads: the project's raw samples live in DuckDB.
import { Database } from '../db/duckdb.js';
import type { EffectSample } from './effect-samples-csv.js';

export async function writeEffectSamplesDb(file: string, samples: readonly EffectSample[]): Promise<void> {
  const db = await Database.open(file);
  try {
    await db.exec(
      'CREATE TABLE effect_samples (row VARCHAR NOT NULL, round INTEGER NOT NULL, side VARCHAR NOT NULL, position INTEGER NOT NULL, state VARCHAR NOT NULL, value DOUBLE, failure VARCHAR NOT NULL)',
    );
    for (const s of samples) {
      await db.exec('INSERT INTO effect_samples VALUES ($1, $2, $3, $4, $5, $6, $7)', [s.row, s.round, s.side, s.position, s.state, s.value, s.failure]);
    }
    await db.checkpoint();
  } finally {
    db.close();
  }
}
