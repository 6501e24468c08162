// The journal of a sampling session: samples.duckdb in the stage's work
// folder, one row per launch written as the launch ends, so an interrupted
// run resumes where it stopped and nothing is counted twice.
import { Database } from './duckdb.js';
import { sampleColumns, type SampleRow } from './sample-columns.js';

/** The attempt number at the end of a launch id (`….s<N>`, see design/session-plan.ts launchId). */
const SESSION_OF_LAUNCH_SQL = String.raw`CAST(regexp_extract(launch_id, '\.s([0-9]+)$', 1) AS INTEGER)`;

export class SampleJournal {
  private constructor(private readonly db: Database, readonly file: string) {}

  static async open(file: string): Promise<SampleJournal> {
    const db = await Database.open(file);
    const cols = sampleColumns.map((c) => `${c.name} ${c.sqlType}${c.nullable ? '' : ' NOT NULL'}`).join(', ');
    await db.exec(`CREATE TABLE IF NOT EXISTS samples (${cols}, PRIMARY KEY (launch_id))`);
    return new SampleJournal(db, file);
  }

  async append(row: SampleRow): Promise<void> {
    const names = sampleColumns.map((c) => c.name);
    await this.db.exec(
      `INSERT INTO samples (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`,
      names.map((n) => row[n] ?? null),
    );
  }

  async markFailed(launchIds: readonly string[], reason: string): Promise<void> {
    for (const id of launchIds) await this.db.exec(`UPDATE samples SET ok = false, failure_reason = $1 WHERE launch_id = $2`, [reason, id]);
  }

  async formalRows(cohort: string): Promise<{ round: number; path: string; state: string }[]> {
    const rows = await this.db.all(`SELECT round, path, state FROM samples WHERE phase = 'formal' AND cohort = $1`, [cohort]);
    return rows.map((r) => ({ round: Number(r['round']), path: String(r['path']), state: String(r['state']) }));
  }

  /** Removes the rows of formal rounds that did not complete. */
  async discardRounds(cohort: string, rounds: readonly number[]): Promise<void> {
    for (const r of rounds) await this.db.exec(`DELETE FROM samples WHERE phase = 'formal' AND cohort = $1 AND round = $2`, [cohort, r]);
  }

  /** Sessions recorded so far (launch ids end in .s<session>). */
  async lastSession(): Promise<number> {
    const row = await this.db.one(`SELECT max(${SESSION_OF_LAUNCH_SQL}) AS s FROM samples`);
    const s = row?.['s'];
    return s === null || s === undefined ? 0 : Number(s);
  }

  /** Every row (BIGINT columns as numbers), in launch order within each phase and round. */
  async rows(): Promise<SampleRow[]> {
    const rows = await this.db.all(`SELECT * FROM samples ORDER BY CASE phase WHEN 'preflight' THEN 0 WHEN 'warmup' THEN 1 ELSE 2 END, started_at, round, order_in_round, launch_id`);
    return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : (v as SampleRow[string])])));
  }

  async counts(): Promise<{ formal: number; failed: number }> {
    const row = await this.db.one(`SELECT count(*) FILTER (WHERE phase = 'formal') AS formal, count(*) FILTER (WHERE phase = 'formal' AND NOT ok) AS failed FROM samples`);
    return { formal: Number(row?.['formal'] ?? 0), failed: Number(row?.['failed'] ?? 0) };
  }

  /** Writes a compact copy of the journal (rows ordered) to `target`. */
  async exportTo(target: string): Promise<void> {
    await this.db.exec(`ATTACH '${target.replace(/'/g, "''")}' AS out`);
    const cols = sampleColumns.map((c) => `${c.name} ${c.sqlType}${c.nullable ? '' : ' NOT NULL'}`).join(', ');
    await this.db.exec(`CREATE TABLE out.samples (${cols})`);
    await this.db.exec(`INSERT INTO out.samples SELECT * FROM samples ORDER BY cohort, CASE phase WHEN 'preflight' THEN 0 WHEN 'warmup' THEN 1 ELSE 2 END, launch_id`);
    await this.db.exec('DETACH out');
  }

  async close(): Promise<void> {
    await this.db.checkpoint();
    this.db.close();
  }
}
