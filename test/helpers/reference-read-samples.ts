// The straightforward reader the analysis used before read-samples.ts read cell by cell: every valid
// formal launch as a row object at once, launch orders derived from every launch's slot. Kept as the
// reference test/analysis-read-samples.test.ts holds the analysis's reader to.
// Reads samples.duckdb (read-only): counting and grouping in SQL, values of
// valid formal launches as rows. Only phase = 'formal' enters the statistics;
// failed launches are counted, never dropped silently.
import { Database } from '../../harness/db/duckdb.js';
import type { SampleData } from '../../harness/analysis/sample-data.js';
import { derivedLaunchOrder, launchOrderOf } from './launch-order.js';

const str = (v: unknown): string => String(v);
const int = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export async function referenceReadSamples(file: string): Promise<SampleData> {
  const db = await Database.open(file, { readOnly: true });
  try {
    const phases = await db.all(`
      SELECT cohort, phase, count(*) AS launches, count(*) FILTER (WHERE NOT ok) AS failures,
             count(DISTINCT round) AS rounds
      FROM samples WHERE phase <> 'canary' GROUP BY cohort, phase ORDER BY cohort, phase`);
    const canary = await db.all(`SELECT session, path, round, ok, completion_ms FROM samples WHERE phase = 'canary' ORDER BY session, round, order_in_round`);
    const cells = await db.all(`
      SELECT cohort, path, state, count(*) AS launches, count(*) FILTER (WHERE NOT ok) AS failures
      FROM samples WHERE phase = 'formal' GROUP BY cohort, path, state ORDER BY cohort, path, state`);
    const failures = await db.all(`
      SELECT cohort, path, state, coalesce(failure_reason, 'unknown') AS reason, count(*) AS n
      FROM samples WHERE phase = 'formal' AND NOT ok
      GROUP BY cohort, path, state, reason ORDER BY cohort, path, state, reason`);
    // Samples journaled before the position and previous_path columns existed lack them (launch-order.ts derives them).
    const columns = new Set(
      (await db.all(`SELECT column_name FROM information_schema.columns WHERE table_name = 'samples'`)).map((r) => str(r['column_name'])),
    );
    const recorded = columns.has('position') && columns.has('previous_path') ? 'position, previous_path' : 'NULL AS position, NULL AS previous_path';
    const values = await db.all(`
      SELECT launch_id, cohort, path, state, session, round, order_in_round, ${recorded}, ready_ms, completion_ms, content_bytes, response_bytes
      FROM samples WHERE phase = 'formal' AND ok
      ORDER BY cohort, path, state, session, round, order_in_round, launch_id`);
    const slots = (await db.all(`SELECT DISTINCT session, cohort, round, order_in_round, path FROM samples WHERE phase = 'formal'`)).map((r) => ({
      session: int(r['session']),
      cohort: str(r['cohort']),
      round: int(r['round']),
      orderInRound: int(r['order_in_round']),
      path: str(r['path']),
    }));
    const derived = derivedLaunchOrder(slots);
    const positions: Record<string, number> = {};
    for (const s of slots) positions[s.cohort] = 0;
    for (const cohort of Object.keys(positions)) positions[cohort] = new Set(slots.filter((s) => s.cohort === cohort).map((s) => s.path)).size;
    // Files written before phase marks existed (or imported from CSV) have no phases table.
    const hasMarks = (await db.all(`SELECT 1 FROM information_schema.tables WHERE table_name = 'phases'`)).length > 0;
    const marks = hasMarks
      ? await db.all(`
          SELECT p.launch_id, s.cohort, s.path, s.state, p.seq, p.name, p.at_ms FROM phases p JOIN samples s USING (launch_id)
          WHERE s.phase = 'formal' AND s.ok ORDER BY s.cohort, s.path, s.state, p.seq, p.name, p.launch_id`)
      : [];
    // ISO-8601 UTC strings of one format sort as the times they name, so min/max need no cast.
    const sessionTimes = await db.all(`
      SELECT session, min(started_at) AS first_started_at,
             min(started_at) FILTER (WHERE phase = 'formal') AS first_formal_at,
             max(started_at) FILTER (WHERE phase = 'formal') AS last_formal_at,
             count(*) FILTER (WHERE phase = 'formal') AS formal_launches
      FROM samples GROUP BY session ORDER BY session`);
    return {
      canary: canary.map((r) => ({
        session: int(r['session']),
        piece: str(r['path']),
        repeat: int(r['round']),
        ok: r['ok'] === true,
        completionMs: r['completion_ms'] === null || r['completion_ms'] === undefined ? null : Number(r['completion_ms']),
      })),
      sessionTimes: sessionTimes.map((r) => ({
        session: int(r['session']),
        firstStartedAt: str(r['first_started_at']),
        firstFormalAt: r['first_formal_at'] == null ? null : str(r['first_formal_at']),
        lastFormalAt: r['last_formal_at'] == null ? null : str(r['last_formal_at']),
        formalLaunches: int(r['formal_launches']),
      })),
      marks: marks.map((r) => ({
        launchId: str(r['launch_id']),
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
      positions,
      values: values.map((r) => ({
        launchId: str(r['launch_id']),
        cohort: str(r['cohort']),
        path: str(r['path']),
        state: str(r['state']),
        session: int(r['session']),
        round: int(r['round']),
        ...launchOrderOf(
          {
            session: int(r['session']),
            cohort: str(r['cohort']),
            round: int(r['round']),
            orderInRound: int(r['order_in_round']),
            path: str(r['path']),
            position: numOrNull(r['position']),
            previousPath: r['previous_path'] === null || r['previous_path'] === undefined ? null : str(r['previous_path']),
          },
          derived,
        ),
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
