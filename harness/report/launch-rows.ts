// Every launch of samples.duckdb as a sample row (the columns of
// schemas/sample.schema.json, all phases), in run order. The report publishes
// them as samples.csv and draws the per-launch plots from them. Columns added
// to the sample schema later (e.g. session, host) flow through unchanged. The
// host canary's launches (phase canary) are left out: they are the host's
// reference, in analysis.json's canary section, not launches of a path.
import { Database } from '../db/duckdb.js';
import { sampleColumns, type SampleValue } from '../db/sample-columns.js';
import { rowOfCells, type SampleRow } from '../db/sample-row.js';

/** Run order: start time, then the launch id (ties only in synthetic data). */
export const runOrderSql = 'ORDER BY started_at, launch_id';

export async function readLaunchRows(file: string): Promise<SampleRow[]> {
  const db = await Database.open(file, { readOnly: true });
  try {
    const present = new Set(
      (await db.all(`SELECT column_name FROM information_schema.columns WHERE table_name = 'samples'`)).map((r) => String(r['column_name'])),
    );
    const cols = sampleColumns.filter((c) => present.has(c.name));
    const rows = await db.all(`SELECT ${cols.map((c) => c.name).join(', ')} FROM samples WHERE phase <> 'canary' ${runOrderSql}`);
    return rows.map((r) => {
      const out: Record<string, SampleValue> = {};
      for (const c of cols) out[c.name] = jsValue(r[c.name]);
      return rowOfCells(out);
    });
  } finally {
    db.close();
  }
}

function jsValue(v: unknown): SampleValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  return String(v);
}
