// The coverage rows a report's warning is judged on (coverage-warning.ts),
// from the table the coverage simulation wrote (bench/coverage-table.ts,
// reports/calibration/coverage.csv): per design (sessions x rounds) and
// interval, the lowest coverage over the simulated variance profiles, each
// pooled over its effects. Pure: the caller reads the file.
import { csvRecords } from '../db/csv-records.js';
import type { CoverageRow } from '../stats/coverage-warning.js';

export function coverageRowsFromCsv(text: string): CoverageRow[] {
  const [head, ...records] = csvRecords(text);
  if (!head) return [];
  const col = (name: string): number => {
    const i = head.fields.indexOf(name);
    if (i < 0) throw new Error(`coverage table has no column ${name}`);
    return i;
  };
  const [profile, sessions, rounds, experiments, boot, t] = ['profile', 'sessions', 'rounds', 'experiments', 'bootstrap_covers', 't_covers'].map(col);
  const pooled = new Map<string, { sessions: number; rounds: number; n: number; boot: number; t: number }>();
  for (const r of records) {
    const f = r.fields;
    const k = [f[profile!], f[sessions!], f[rounds!]].join('|');
    const p = pooled.get(k) ?? { sessions: Number(f[sessions!]), rounds: Number(f[rounds!]), n: 0, boot: 0, t: 0 };
    p.n += Number(f[experiments!]);
    p.boot += Number(f[boot!]);
    p.t += Number(f[t!]);
    pooled.set(k, p);
  }
  const lowest = new Map<string, CoverageRow>();
  for (const p of pooled.values()) {
    const rows: CoverageRow[] = [{ sessions: p.sessions, rounds: p.rounds, coverage: p.boot / p.n, interval: 'two-level bootstrap' }];
    if (p.sessions >= 3) rows.push({ sessions: p.sessions, rounds: p.rounds, coverage: p.t / p.n, interval: 'between-session t' });
    for (const row of rows) {
      const k = `${row.sessions}|${row.rounds}|${row.interval}`;
      const seen = lowest.get(k);
      if (!seen || row.coverage < seen.coverage) lowest.set(k, row);
    }
  }
  return [...lowest.values()].sort((x, y) => x.sessions - y.sessions || x.rounds - y.rounds || x.interval.localeCompare(y.interval));
}
