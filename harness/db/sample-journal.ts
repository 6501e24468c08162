// The journal of a sampling session: samples.duckdb in the stage's work
// folder, one row per launch written as the launch ends, so an interrupted
// run resumes where it stopped and nothing is counted twice.
import { Database } from './duckdb.js';
import { sampleColumns, samplesTableColumnsSql, type SampleColumn, type SampleValue } from './sample-columns.js';
import { cellsOf, rowOfCells, type SampleRow } from './sample-row.js';

/** Phase marks of a launch: `BENCHGRAPH-PHASE NAME` lines its path printed on stderr, timed from spawn. */
const PHASES_COLUMNS_SQL = 'launch_id VARCHAR NOT NULL, seq INTEGER NOT NULL, name VARCHAR NOT NULL, at_ms DOUBLE NOT NULL';

/** The attempt number at the end of a launch id (`….a<N>`, see design/session-plan.ts launchId). */
const ATTEMPT_OF_LAUNCH_SQL = String.raw`CAST(regexp_extract(launch_id, '\.a([0-9]+)$', 1) AS INTEGER)`;

export class SampleJournal {
  private readonly columns: readonly SampleColumn[];
  private constructor(
    private readonly db: Database,
    readonly file: string,
    /** The experiment's own measure and sweep columns, after the shared ones. */
    private readonly extra: readonly SampleColumn[] = [],
  ) {
    this.columns = [...sampleColumns, ...extra];
  }

  /** Opens (or creates) a journal; `extra` are the experiment's declared measure and sweep columns. */
  static async open(file: string, extra: readonly SampleColumn[] = []): Promise<SampleJournal> {
    const db = await Database.open(file);
    await db.exec(`CREATE TABLE IF NOT EXISTS samples (${samplesTableColumnsSql(extra)}, PRIMARY KEY (launch_id))`);
    await db.exec(`CREATE TABLE IF NOT EXISTS phases (${PHASES_COLUMNS_SQL})`);
    return new SampleJournal(db, file, extra);
  }

  /** Every row of a journal file (read-only), as rows() orders them. */
  static async readRows(file: string): Promise<SampleRow[]> {
    const db = await Database.open(file, { readOnly: true });
    try {
      return await new SampleJournal(db, file).rows();
    } finally {
      db.close();
    }
  }

  /** Journals a launch and the phase marks it printed (time from spawn to each mark). */
  async append(row: SampleRow, phases: readonly { name: string; ms: number }[] = []): Promise<void> {
    const names = this.columns.map((c) => c.name);
    await this.db.exec(
      `INSERT INTO samples (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`,
      this.columns.map((c) => {
        const v = cellsOf(row)[c.name] ?? c.default ?? null;
        return c.sqlType === 'BIGINT' && typeof v === 'number' ? BigInt(Math.round(v)) : v;
      }),
    );
    for (const [i, p] of phases.entries()) {
      await this.db.exec('INSERT INTO phases VALUES ($1, $2, $3, $4)', [row.launch_id, i + 1, p.name, p.ms]);
    }
  }

  async markFailed(launchIds: readonly string[], reason: string): Promise<void> {
    for (const id of launchIds) await this.db.exec(`UPDATE samples SET ok = false, failure_reason = $1 WHERE launch_id = $2`, [reason, id]);
  }

  async formalRows(): Promise<{ session: number; cohort: string; round: number; path: string; state: string }[]> {
    const rows = await this.db.all(`SELECT session, cohort, round, path, state FROM samples WHERE phase = 'formal'`);
    return rows.map((r) => ({
      session: Number(r['session']),
      cohort: String(r['cohort']),
      round: Number(r['round']),
      path: String(r['path']),
      state: String(r['state']),
    }));
  }

  /** Removes the rows of formal rounds of a session that did not complete. */
  async discardRounds(session: number, cohort: string, rounds: readonly number[]): Promise<void> {
    for (const r of rounds) {
      const where = `phase = 'formal' AND session = $1 AND cohort = $2 AND round = $3`;
      await this.db.exec(`DELETE FROM phases WHERE launch_id IN (SELECT launch_id FROM samples WHERE ${where})`, [session, cohort, r]);
      await this.db.exec(`DELETE FROM samples WHERE ${where}`, [session, cohort, r]);
    }
  }

  /** Attempts recorded so far (launch ids end in .a<attempt>): the stage's starts that journaled anything. */
  async lastAttempt(): Promise<number> {
    const row = await this.db.one(`SELECT max(${ATTEMPT_OF_LAUNCH_SQL}) AS s FROM samples`);
    const s = row?.['s'];
    return s === null || s === undefined ? 0 : Number(s);
  }

  /** Every row (BIGINT columns as numbers), in launch order within each phase and round. */
  async rows(): Promise<SampleRow[]> {
    const rows = await this.db.all(
      `SELECT * FROM samples ORDER BY CASE phase WHEN 'preflight' THEN 0 WHEN 'warmup' THEN 1 ELSE 2 END, started_at, round, order_in_round, launch_id`,
    );
    return rows.map((r) => rowOfCells(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : (v as SampleValue)]))));
  }

  /** Adds every row of another journal file whose launch id is not here yet (a session file written elsewhere). */
  async mergeFrom(file: string): Promise<number> {
    const before = await this.db.one('SELECT count(*) AS n FROM samples');
    await this.db.exec(`ATTACH '${file.replace(/'/g, "''")}' AS other (READ_ONLY)`);
    try {
      // a journal that never got a phases table (a session job cancelled before its first launch) has no marks to merge
      const hasPhases = await this.db.one(`SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = 'other' AND table_name = 'phases'`);
      if (Number(hasPhases?.['n'] ?? 0) > 0)
        await this.db.exec('INSERT INTO phases SELECT * FROM other.phases WHERE launch_id NOT IN (SELECT launch_id FROM samples)');
      await this.db.exec('INSERT INTO samples SELECT * FROM other.samples WHERE launch_id NOT IN (SELECT launch_id FROM samples)');
      // One host canary per session: a session run again elsewhere (a Slurm job sees only its own file) keeps its earliest attempt's.
      await this.db.exec(
        `DELETE FROM samples WHERE phase = 'canary' AND ${ATTEMPT_OF_LAUNCH_SQL} > (SELECT min(${ATTEMPT_OF_LAUNCH_SQL.replace('launch_id', 'c.launch_id')}) FROM samples c WHERE c.phase = 'canary' AND c.session = samples.session)`,
      );
    } finally {
      await this.db.exec('DETACH other');
    }
    const after = await this.db.one('SELECT count(*) AS n FROM samples');
    return Number(after?.['n'] ?? 0) - Number(before?.['n'] ?? 0);
  }

  /** Hosts that ran formal launches, sorted. */
  async hosts(): Promise<string[]> {
    return (await this.db.all(`SELECT DISTINCT host FROM samples WHERE phase = 'formal' ORDER BY 1`)).map((r) => String(r['host']));
  }

  async counts(): Promise<{ formal: number; failed: number }> {
    const row = await this.db.one(
      `SELECT count(*) FILTER (WHERE phase = 'formal') AS formal, count(*) FILTER (WHERE phase = 'formal' AND NOT ok) AS failed FROM samples`,
    );
    return { formal: Number(row?.['formal'] ?? 0), failed: Number(row?.['failed'] ?? 0) };
  }

  /** Writes a compact copy of the journal (rows ordered) to `target`. */
  async exportTo(target: string): Promise<void> {
    await this.db.exec(`ATTACH '${target.replace(/'/g, "''")}' AS out`);
    await this.db.exec(`CREATE TABLE out.samples (${samplesTableColumnsSql(this.extra)})`);
    await this.db.exec(
      `INSERT INTO out.samples SELECT * FROM samples ORDER BY session, cohort, CASE phase WHEN 'preflight' THEN 0 WHEN 'warmup' THEN 1 ELSE 2 END, launch_id`,
    );
    await this.db.exec(`CREATE TABLE out.phases (${PHASES_COLUMNS_SQL})`);
    await this.db.exec('INSERT INTO out.phases SELECT * FROM phases ORDER BY launch_id, seq');
    await this.db.exec('DETACH out');
  }

  async close(): Promise<void> {
    await this.db.checkpoint();
    this.db.close();
  }
}
