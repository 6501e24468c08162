// The host reference per session (pure): the host canary's median per piece
// in each session and over the run, with intervals (analysis.json canary),
// beside its cost and what the host's counters said (the session records).
// Empty when the samples hold no canary launch.
import type { AnalysisResult } from '../analysis/analysis-result.js';
import type { CanaryMedian } from '../analysis/canary-statistics.js';
import type { SessionRecord } from '../contract/exchange-files.js';
import { canaryTracking, MIN_SESSIONS, type CanaryTracking } from '../analysis/canary-tracking.js';
import { fixed, grouped } from '../publish/format-number.js';
import { paragraph, table, type Block } from '../document/document-model.js';

const DESCRIPTION: Record<string, string> = {
  cpu: 'an integer loop',
  mem: 'a write and a read pass over 64 MiB',
  fs: 'create, fsync and unlink 8 files in the data folder',
  wake: '2000 pipe round trips between two processes',
  exec: 'spawn and exit of a static binary',
};

function cell(m: CanaryMedian | undefined, msDecimals: number): string {
  if (!m || m.medianMs === null) return m?.failures ? `failed ×${m.failures}` : '-';
  const interval = m.lowMs !== null && m.highMs !== null ? ` [${fixed(m.lowMs, msDecimals)}, ${fixed(m.highMs, msDecimals)}]` : '';
  return `${fixed(m.medianMs, msDecimals)}${interval}${m.failures ? ` (${m.failures} failed)` : ''}`;
}

export function canaryBlocks(a: AnalysisResult, records: readonly SessionRecord[] | null, msDecimals: number): Block[] {
  const c = a.canary;
  if (!c) return [];
  const latest = new Map<number, SessionRecord>();
  for (const r of records ?? []) if (r.canary && !r.canary.skipped) latest.set(r.session, r);
  const costs = [...latest.values()].map((r) => r.canary!.wallMs / 1000);
  const hostColumns = latest.size > 0;
  const hostCells = (session: number): string[] => {
    const k = latest.get(session)?.canary;
    if (!hostColumns) return [];
    if (!k) return ['-', '-', '-', '-'];
    const steal = k.counters.stealShare;
    return [
      `${fixed(k.wallMs / 1000, 2)} s`,
      steal === null ? '-' : `${fixed(steal * 100, 1)}%`,
      grouped(k.counters.pgscan),
      k.counters.pid1CpuMs === null ? '-' : `${fixed(k.counters.pid1CpuMs / 1000, 1)} s`,
    ];
  };
  const header = ['session', ...c.pieces, ...(hostColumns ? ['canary cost', 'steal', 'pages scanned', 'pid 1 CPU'] : [])];
  const rows = [
    ...c.sessions.map((s) => [
      String(s.session),
      ...c.pieces.map((p) =>
        cell(
          s.pieces.find((x) => x.piece === p),
          msDecimals,
        ),
      ),
      ...hostCells(s.session),
    ]),
    [
      'run',
      ...c.pieces.map((p) =>
        cell(
          c.run.find((x) => x.piece === p),
          msDecimals,
        ),
      ),
      ...(hostColumns ? ['', '', '', ''] : []),
    ],
  ];
  return [
    paragraph(
      `Host reference per session: fixed pieces of work run before each session's first launch, timed by the same launch helper (spawn to exit, ms), each piece ${
        c.sessions[0]?.pieces[0]?.n ?? 0
      } times: ${c.pieces.map((p) => `${p}, ${DESCRIPTION[p] ?? p}`).join('; ')}. ` +
        `A session or run whose canary is slower ran on a slower host, whatever its paths did. Medians with their ${fixed(c.confidence * 100, 0)}% two-level bootstrap interval.` +
        (costs.length
          ? ` The canary took ${costs.map((s) => `${fixed(s, 1)} s`).join(', ')} per session; steal, pages scanned and pid 1 CPU are counted from its start to the session's end.`
          : ''),
    ),
    table(header, rows, 'Host canary: median completion (ms) [interval] per piece, per session and over the run.'),
    ...trackingBlocks(canaryTracking(a)),
  ];
}

/** Per Ready cell, how its session medians follow the canary (analysis/canary-tracking.ts). */
export function trackingBlocks(t: CanaryTracking | null): Block[] {
  if (!t || t.cells.length === 0) return [];
  const conf = fixed(t.confidence * 100, 0);
  const fitted = t.cells.filter((c) => c.slope !== null);
  if (fitted.length === 0) {
    const why = t.cells[0]!.why ?? 'cannot tell';
    return [
      paragraph(`How the cells follow the canary: ${why}, so no cell's slope on it can be fitted (that takes ${MIN_SESSIONS} sessions or more with a canary).`),
    ];
  }
  const count = (r: string): number => t.cells.filter((c) => c.reading === r).length;
  const levels = t.levels.map((l) => `session ${l.session} ×${fixed(Math.exp(l.level), 3)}`).join(', ');
  return [
    paragraph(
      `How each Ready cell follows the canary: the slope of ln(the cell's session median) on the canary's level in the session (the mean over pieces of ln(session median / run median): ${levels}), ` +
        `with its ${conf}% t interval over the sessions. A slope of 1 moves the cell as the canary moves; 0, not at all. ` +
        `${count('follows')} of ${t.cells.length} cells follow it (interval above 0), ${count('against')} move against it, ${count('not resolved')} not resolved${count('cannot tell') ? `, ${count('cannot tell')} cannot tell` : ''}.`,
    ),
    table(
      ['cohort', 'path', 'state', 'sessions', 'slope [interval]', 'r', 'reading'],
      t.cells.map((c) => [
        c.cohort,
        c.path,
        c.state,
        String(c.sessions),
        c.slope === null ? '-' : `${fixed(c.slope, 2)} [${fixed(c.low!, 2)}, ${fixed(c.high!, 2)}]`,
        c.correlation === null ? '-' : fixed(c.correlation, 2),
        c.why ?? c.reading,
      ]),
      `Ready cells against the host canary: slope of the cell's log session median on the canary's log level, ${conf}% interval (Student's t, sessions − 2 degrees of freedom), and the correlation.`,
    ),
  ];
}
