// Effects: the raw commit observations in DuckDB, one row per measured commit,
// written as it ends. Dimensions are columns (DOUBLE) named after them.
import { Database } from '../db/duckdb.js';
import type { CommitObservation } from './commit-workload.js';

export interface CommitRow extends CommitObservation {
  cell: string;
  dims: Record<string, number>;
  method: string;
  phase: 'warmup' | 'formal';
  round: number;
  orderInRound: number;
  startedAt: string;
}

export class CommitJournal {
  private constructor(private readonly db: Database, private readonly dims: readonly string[]) {}

  static async open(path: string, dims: readonly string[]): Promise<CommitJournal> {
    const db = await Database.open(path);
    const dimCols = dims.map((d) => `"${d}" DOUBLE`).join(', ');
    await db.exec(
      `CREATE TABLE IF NOT EXISTS commits (cell VARCHAR, ${dimCols ? dimCols + ', ' : ''}method VARCHAR, state VARCHAR, phase VARCHAR, round INTEGER, order_in_round INTEGER,
       ok BOOLEAN, failure_reason VARCHAR, wall_ms DOUBLE, engine_cpu_ms DOUBLE, disk_read_bytes BIGINT, read_chars_bytes BIGINT, layer_bytes BIGINT, started_at VARCHAR)`,
    );
    await db.exec(
      `CREATE TABLE IF NOT EXISTS compression (method VARCHAR, round INTEGER, layer_bytes BIGINT, compressed_bytes BIGINT, wall_ms DOUBLE, ok BOOLEAN, failure_reason VARCHAR, note VARCHAR)`,
    );
    return new CommitJournal(db, dims);
  }

  async add(r: CommitRow): Promise<void> {
    const dimVals = this.dims.map((d) => r.dims[d] ?? null);
    const n = 14 + this.dims.length;
    const ph = Array.from({ length: n }, () => '?').join(', ');
    await this.db.exec(`INSERT INTO commits VALUES (${ph})`, [
      r.cell, ...dimVals, r.method, r.state, r.phase, r.round, r.orderInRound, r.ok, r.failureReason, r.wallMs, r.engineCpuMs,
      r.diskReadBytes === null ? null : BigInt(r.diskReadBytes), r.readCharsBytes === null ? null : BigInt(r.readCharsBytes),
      r.layerBytes === null ? null : BigInt(r.layerBytes), r.startedAt,
    ]);
  }

  async addCompression(r: { method: string; round: number; layerBytes: number; compressedBytes: number | null; wallMs: number | null; ok: boolean; failureReason: string | null; note: string }): Promise<void> {
    await this.db.exec('INSERT INTO compression VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
      r.method, r.round, BigInt(r.layerBytes), r.compressedBytes === null ? null : BigInt(r.compressedBytes), r.wallMs, r.ok, r.failureReason, r.note,
    ]);
  }

  async close(): Promise<void> {
    await this.db.checkpoint();
    this.db.close();
  }
}
