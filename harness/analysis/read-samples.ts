// Reads samples.duckdb (read-only): counting and grouping in SQL, values of
// valid formal launches as rows. Only phase = 'formal' enters the statistics;
// failed launches are counted, never dropped silently.
import { Database } from '../db/duckdb.js';
import type { SampleData } from './sample-data.js';

const str = (v: unknown): string => String(v);
const int = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export async function readSamples(file: string): Promise<SampleData> {
  const db = await Database.open(file, { readOnly: true });
  try {
    const phases = await db.all(`
      SELECT cohort, phase, count(*) AS launches, count(*) FILTER (WHERE NOT ok) AS failures,
             count(DISTINCT round) AS rounds
      FROM samples GROUP BY cohort, phase ORDER BY cohort, phase`);
    const cells = await db.all(`
      SELECT cohort, path, state, count(*) AS launches, count(*) FILTER (WHERE NOT ok) AS failures
      FROM samples WHERE phase = 'formal' GROUP BY cohort, path, state ORDER BY cohort, path, state`);
    const failures = await db.all(`
      SELECT cohort, path, state, coalesce(failure_reason, 'unknown') AS reason, count(*) AS n
      FROM samples WHERE phase = 'formal' AND NOT ok
      GROUP BY cohort, path, state, reason ORDER BY cohort, path, state, reason`);
    const values = await db.all(`
      SELECT cohort, path, state, session, round, ready_ms, completion_ms, content_bytes, response_bytes
      FROM samples WHERE phase = 'formal' AND ok
      ORDER BY cohort, path, state, session, round, order_in_round, launch_id`);
    // Files written before phase marks existed (or imported from CSV) have no phases table.
    const hasMarks = (await db.all(`SELECT 1 FROM information_schema.tables WHERE table_name = 'phases'`)).length > 0;
    const marks = hasMarks
      ? await db.all(`
          SELECT s.cohort, s.path, s.state, p.seq, p.name, p.at_ms FROM phases p JOIN samples s USING (launch_id)
          WHERE s.phase = 'formal' AND s.ok ORDER BY s.cohort, s.path, s.state, p.seq, p.name`)
      : [];
    return {
      marks: marks.map((r) => ({
        cohort: str(r['cohort']),
        path: str(r['path']),
        state: str(r['state']),
        seq: int(r['seq']),
        name: str(r['name']),
        atMs: Number(r['at_ms']),
      })),
      phases: phases.map((r) => ({
        cohort: str(r['cohort']),
        phase: str(r['phase']),
        launches: int(r['launches']),
        failures: int(r['failures']),
        rounds: int(r['rounds']),
      })),
      cells: cells.map((r) => ({
        cohort: str(r['cohort']),
        path: str(r['path']),
        state: str(r['state']),
        launches: int(r['launches']),
        failures: int(r['failures']),
      })),
      failures: failures.map((r) => ({
        cohort: str(r['cohort']),
        path: str(r['path']),
        state: str(r['state']),
        reason: str(r['reason']),
        count: int(r['n']),
      })),
      values: values.map((r) => ({
        cohort: str(r['cohort']),
        path: str(r['path']),
        state: str(r['state']),
        session: int(r['session']),
        round: int(r['round']),
        readyMs: numOrNull(r['ready_ms']),
        completionMs: numOrNull(r['completion_ms']),
        contentBytes: numOrNull(r['content_bytes']),
        responseBytes: numOrNull(r['response_bytes']),
      })),
    };
  } finally {
    db.close();
  }
}
