// What the analysis needs from samples.duckdb (sample-data.ts), in little
// memory: the values come one cell at a time (in the order cohort, path, state,
// session, round, order in round, launch id), and the previous path of a launch
// without a recorded one is looked up in SQL, by the rule of test/helpers/launch-order.ts (the tests' reference):
// the path at order_in_round - 1 among the formal launches of the same session,
// cohort and round (should two paths share a slot, the larger name). Reading
// every launch as a row object at once peaked near 2 GB at 10^6 launches;
// test/analysis-read-samples.test.ts holds this reader to that straightforward
// one (test/helpers/reference-read-samples.ts).
import { Database } from '../db/duckdb.js';
import type { SampleData, ValueRow } from './sample-data.js';

const str = (v: unknown): string => String(v);
const int = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
/** The cell a row names: its cohort, path and state, in that order. */
const cellOf = (r: Record<string, unknown>): { cohort: string; path: string; state: string } => ({
  cohort: str(r['cohort']),
  path: str(r['path']),
  state: str(r['state']),
});

export async function readSamples(file: string): Promise<SampleData> {
  const db = await Database.open(file, { readOnly: true });
  try {
    const phases = await db.all(`
      SELECT cohort, phase, count(*) AS launches, count(*) FILTER (WHERE NOT ok) AS failures,
             count(DISTINCT round) AS rounds
      FROM samples WHERE phase <> 'canary' GROUP BY cohort, phase ORDER BY cohort, phase`);
    // The host canary (experiment/host-canary.ts): its own statistics, never the formal ones.
    const canary = await db.all(`SELECT session, path, round, ok, completion_ms FROM samples WHERE phase = 'canary' ORDER BY session, round, order_in_round`);
    const cells = await db.all(`
      SELECT cohort, path, state, count(*) AS launches, count(*) FILTER (WHERE NOT ok) AS failures
      FROM samples WHERE phase = 'formal' GROUP BY cohort, path, state ORDER BY cohort, path, state`);
    const failures = await db.all(`
      SELECT cohort, path, state, coalesce(failure_reason, 'unknown') AS reason, count(*) AS n
      FROM samples WHERE phase = 'formal' AND NOT ok
      GROUP BY cohort, path, state, reason ORDER BY cohort, path, state, reason`);
    const columns = new Set(
      (await db.all(`SELECT column_name FROM information_schema.columns WHERE table_name = 'samples'`)).map((r) => str(r['column_name'])),
    );
    const recorded = columns.has('position') && columns.has('previous_path') ? 's.position, s.previous_path' : 'NULL AS position, NULL AS previous_path';
    const positions: Record<string, number> = {};
    for (const r of await db.all(`SELECT cohort, count(DISTINCT path) AS n FROM samples WHERE phase = 'formal' GROUP BY cohort ORDER BY cohort`)) {
      positions[str(r['cohort'])] = int(r['n']);
    }
    const values: ValueRow[] = [];
    for (const c of cells) {
      const rows = await db.all(
        `
        WITH slots AS (SELECT session, cohort, round, order_in_round, max(path) AS path FROM samples WHERE phase = 'formal' AND cohort = $1 GROUP BY ALL)
        SELECT s.launch_id, s.session, s.round, s.order_in_round, ${recorded}, s.ready_ms, s.completion_ms, s.content_bytes, s.response_bytes,
               p.path AS derived_previous
        FROM samples s LEFT JOIN slots p
          ON p.session = s.session AND p.cohort = s.cohort AND p.round = s.round AND p.order_in_round = s.order_in_round - 1
        WHERE s.phase = 'formal' AND s.ok AND s.cohort = $1 AND s.path = $2 AND s.state = $3
        ORDER BY s.session, s.round, s.order_in_round, s.launch_id`,
        [str(c['cohort']), str(c['path']), str(c['state'])],
      );
      const cell = cellOf(c);
      for (const r of rows) {
        const orderInRound = int(r['order_in_round']);
        const position = numOrNull(r['position']);
        values.push({
          launchId: str(r['launch_id']),
          ...cell,
          session: int(r['session']),
          round: int(r['round']),
          // test/helpers/launch-order.ts's launchOrderOf: the recorded order when the row has one, else the derived one
          ...(position !== null
            ? { position, previousPath: r['previous_path'] === null || r['previous_path'] === undefined ? null : str(r['previous_path']) }
            : { position: orderInRound, previousPath: orderInRound > 0 && r['derived_previous'] != null ? str(r['derived_previous']) : null }),
          readyMs: numOrNull(r['ready_ms']),
          completionMs: numOrNull(r['completion_ms']),
          contentBytes: numOrNull(r['content_bytes']),
          responseBytes: numOrNull(r['response_bytes']),
        });
      }
    }
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
        completionMs: numOrNull(r['completion_ms']),
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
        ...cellOf(r),
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
        ...cellOf(r),
        launches: int(r['launches']),
        failures: int(r['failures']),
      })),
      failures: failures.map((r) => ({
        ...cellOf(r),
        reason: str(r['reason']),
        count: int(r['n']),
      })),
      positions,
      values,
    };
  } finally {
    db.close();
  }
}
