// Effects: the raw rows of a commit-sample DuckDB file, as plain data.
import { Database } from '../db/duckdb.js';
import type { CommitRowData, CompressionRowData } from './commit-analysis.js';
import { COMMIT_DIMENSIONS } from './commit-cell.js';

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export async function readCommitRows(file: string): Promise<{ rows: CommitRowData[]; compression: CompressionRowData[] }> {
  const db = await Database.open(file, { readOnly: true });
  try {
    const rows = (await db.all('SELECT * FROM commits ORDER BY phase, round, order_in_round, state')).map((r) => ({
      cell: String(r['cell']),
      dims: Object.fromEntries(COMMIT_DIMENSIONS.map((d) => [d, Number(r[d])])),
      method: String(r['method']),
      state: String(r['state']),
      phase: String(r['phase']),
      round: Number(r['round']),
      ok: Boolean(r['ok']),
      failureReason: r['failure_reason'] === null ? null : String(r['failure_reason']),
      wallMs: num(r['wall_ms']),
      engineCpuMs: num(r['engine_cpu_ms']),
      diskReadBytes: num(r['disk_read_bytes']),
      readCharsBytes: num(r['read_chars_bytes']),
      layerBytes: num(r['layer_bytes']),
    }));
    const compression = (await db.all('SELECT * FROM compression ORDER BY method, round')).map((r) => ({
      method: String(r['method']),
      round: Number(r['round']),
      layerBytes: Number(r['layer_bytes']),
      compressedBytes: num(r['compressed_bytes']),
      wallMs: num(r['wall_ms']),
      ok: Boolean(r['ok']),
      note: String(r['note'] ?? ''),
    }));
    return { rows, compression };
  } finally {
    db.close();
  }
}
