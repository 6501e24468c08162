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
  private constructor(
    private readonly db: Database,
    private readonly dims: readonly string[],
  ) {}

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
    await db.exec('CREATE TABLE IF NOT EXISTS done (cell VARCHAR, phase VARCHAR, round INTEGER, checks VARCHAR)');
    return new CommitJournal(db, dims);
  }

  /**
   * Resuming after an interruption: drops the rows of every cell-round and
   * compression round that did not finish, and every warmup row (warmup
   * belongs to a session). Returns the finished formal cell-rounds as
   * `round/cell` and the finished compression rounds.
   */
  async resume(): Promise<{ formal: Set<string>; compressionRounds: Set<number>; dropped: number }> {
    const before = Number((await this.db.one('SELECT (SELECT count(*) FROM commits) + (SELECT count(*) FROM compression) AS n'))!['n']);
    await this.db.exec(
      `DELETE FROM commits WHERE phase <> 'formal' OR NOT EXISTS (SELECT 1 FROM done d WHERE d.cell = commits.cell AND d.phase = commits.phase AND d.round = commits.round)`,
    );
    await this.db.exec(`DELETE FROM compression WHERE NOT EXISTS (SELECT 1 FROM done d WHERE d.phase = 'compression' AND d.round = compression.round)`);
    const after = Number((await this.db.one('SELECT (SELECT count(*) FROM commits) + (SELECT count(*) FROM compression) AS n'))!['n']);
    const rows = await this.db.all('SELECT cell, phase, round FROM done');
    return {
      formal: new Set(rows.filter((r) => r['phase'] === 'formal').map((r) => `${Number(r['round'])}/${String(r['cell'])}`)),
      compressionRounds: new Set(rows.filter((r) => r['phase'] === 'compression').map((r) => Number(r['round']))),
      dropped: before - after,
    };
  }

  /** Marks a cell-round (or compression round) finished, with its change-set checks if it listed them. */
  async markDone(cell: string, phase: string, round: number, checks: unknown[] | null): Promise<void> {
    await this.db.exec('INSERT INTO done VALUES (?, ?, ?, ?)', [cell, phase, round, checks === null ? null : JSON.stringify(checks)]);
  }

  /** Change-set checks of every finished cell-round that listed them. */
  async checks(): Promise<Record<string, unknown>[]> {
    const rows = await this.db.all('SELECT checks FROM done WHERE checks IS NOT NULL ORDER BY phase, round, cell');
    return rows.flatMap((r) => JSON.parse(String(r['checks'])) as Record<string, unknown>[]);
  }

  async add(r: CommitRow): Promise<void> {
    const dimVals = this.dims.map((d) => r.dims[d] ?? null);
    const n = 14 + this.dims.length;
    const ph = Array.from({ length: n }, () => '?').join(', ');
    await this.db.exec(`INSERT INTO commits VALUES (${ph})`, [
      r.cell,
      ...dimVals,
      r.method,
      r.state,
      r.phase,
      r.round,
      r.orderInRound,
      r.ok,
      r.failureReason,
      r.wallMs,
      r.engineCpuMs,
      r.diskReadBytes === null ? null : BigInt(r.diskReadBytes),
      r.readCharsBytes === null ? null : BigInt(r.readCharsBytes),
      r.layerBytes === null ? null : BigInt(r.layerBytes),
      r.startedAt,
    ]);
  }

  async addCompression(r: {
    method: string;
    round: number;
    layerBytes: number;
    compressedBytes: number | null;
    wallMs: number | null;
    ok: boolean;
    failureReason: string | null;
    note: string;
  }): Promise<void> {
    await this.db.exec('INSERT INTO compression VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
      r.method,
      r.round,
      BigInt(r.layerBytes),
      r.compressedBytes === null ? null : BigInt(r.compressedBytes),
      r.wallMs,
      r.ok,
      r.failureReason,
      r.note,
    ]);
  }

  async close(): Promise<void> {
    await this.db.checkpoint();
    this.db.close();
  }
}
