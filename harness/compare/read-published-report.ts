// Reads a published report folder: differences.csv, statistics.csv and (when
// present) sessions.csv and disk.csv, by header name. A missing folder, file or column is a UserError naming it.
// The same reading of CSV texts not yet written anywhere (a report stage holding
// its own run against the previous one, previous-run-section.ts): publishedReportOf.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { parseCsvTable, type CsvTable } from './csv-table.js';
import type { PublishedCell, PublishedDifference, PublishedDisk, PublishedReport } from './published-report.js';
import { verdicts, type Verdict } from '../analysis/comparison-verdict.js';
import { archiveCanaries, folderCanary } from './run-canary.js';

const FOLDER_HINT = 'pass a published report folder such as reports/lazy-startup/, which holds statistics.csv and differences.csv';

/** Where the CSV files come from: a folder, or the texts a report stage is about to publish. */
export interface ReportTexts {
  /** The folder as named, or the stage's output folder. */
  folder: string;
  /** A file's text; null when there is no such file. */
  text: (name: string) => string | null;
}

const folderTexts = (folder: string): ReportTexts => ({
  folder,
  text: (name) => (existsSync(join(folder, name)) ? readFileSync(join(folder, name), 'utf8') : null),
});

function readTable(src: ReportTexts, name: string, required: readonly string[]): CsvTable {
  const file = join(src.folder, name);
  const text = src.text(name);
  if (text === null) throw new UserError(`missing ${name} in the report folder`, { file }, FOLDER_HINT);
  const table = parseCsvTable(text);
  for (const column of required) {
    if (!table.header.includes(column)) {
      throw new UserError(`missing column ${column}`, { file, line: 1 }, `the header has ${table.header.join(', ') || 'no columns'}`);
    }
  }
  return table;
}

/** A true/false column; null when the report has no such column or the field is empty. */
const flag = (raw: string | undefined): boolean | null => (raw === 'true' ? true : raw === 'false' ? false : null);

const num = (raw: string | undefined): number | null => {
  if (raw === undefined || raw.trim() === '') return null;
  const v = Number(raw);
  return Number.isFinite(v) ? v : null;
};

export function readPublishedReport(folder: string): PublishedReport {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UserError('no such report folder', { file: folder }, FOLDER_HINT);
  return { ...publishedReportOf(folderTexts(folder)), canary: folderCanary(folder), archiveCanaries: archiveCanaries(folder) };
}

/** Pure: the differences, cells and disk probes of a report's CSV texts (no canary: the caller knows where its run's is). */
export function publishedReportOf(src: ReportTexts): PublishedReport {
  const folder = src.folder;
  const diff = readTable(src, 'differences.csv', ['cohort', 'state', 'metric', 'a', 'b', 'value']);
  const hasDetected = diff.header.includes('detected');
  if (!hasDetected && !(diff.header.includes('low') && diff.header.includes('high'))) {
    throw new UserError(
      'missing column detected (or low and high)',
      { file: join(folder, 'differences.csv'), line: 1 },
      'a published differences.csv says whether each difference was detected',
    );
  }
  const differences: PublishedDifference[] = diff.rows
    .filter((r) => ['median_difference', 'median_ratio'].includes(r['kind'] ?? 'median_difference'))
    .map((r) => {
      const kind = (r['kind'] ?? 'median_difference') as PublishedDifference['kind'];
      const nullValue = kind === 'median_ratio' ? 1 : 0;
      const low = num(r['low']);
      const high = num(r['high']);
      const detected = hasDetected ? r['detected'] === 'true' : low !== null && high !== null && (low > nullValue || high < nullValue);
      const factor = r['factor'] === 'unit' || r['factor'] === 'condition' ? r['factor'] : null;
      return {
        kind,
        ...(factor ? { factor, path: r['path'] ?? '' } : {}),
        cohort: r['cohort']!,
        state: r['state']!,
        metric: r['metric']!,
        a: r['a']!,
        b: r['b']!,
        value: num(r['value']),
        low,
        high,
        detected,
        sessionLow: num(r['session_low']),
        sessionHigh: num(r['session_high']),
        sessionsSameDirection: r['sessions_same_direction'] !== undefined && r['sessions_same_direction'] !== '' ? r['sessions_same_direction'] : null,
        orderEffect: flag(r['order_effect']),
        verdict: verdicts.includes(r['verdict'] as Verdict) ? (r['verdict'] as Verdict) : null,
        rerunLow: num(r['rerun_low']),
        rerunHigh: num(r['rerun_high']),
      };
    });
  const stats = readTable(src, 'statistics.csv', ['cohort', 'path', 'state', 'metric', 'p50']);
  const { spreads, sessions } = readSpreads(src);
  const cells: PublishedCell[] = stats.rows.map((r) => ({
    cohort: r['cohort']!,
    path: r['path']!,
    state: r['state']!,
    metric: r['metric']!,
    unit: r['unit'] ?? '',
    p50: num(r['p50']),
    orderEffect: flag(r['order_effect']),
    sessionSpread: spreads.get([r['cohort'], r['path'], r['state'], r['metric']].join('\u0000')) ?? null,
    sessions: sessions.size ? (sessions.get([r['cohort'], r['path'], r['state'], r['metric']].join('\u0000')) ?? null) : null,
  }));
  return { folder, differences, cells, disks: readDisks(src) };
}

/**
 * cell_session_spread of each cell in sessions.csv (the same on every session row of a cell; empty when the
 * report has none, or its sessions.csv predates the column), and how many session rows each cell has.
 */
function readSpreads(src: ReportTexts): { spreads: Map<string, number>; sessions: Map<string, number> } {
  const spreads = new Map<string, number>();
  const sessions = new Map<string, number>();
  if (src.text('sessions.csv') === null) return { spreads, sessions };
  const table = readTable(src, 'sessions.csv', ['cohort', 'path', 'state', 'metric']);
  for (const r of table.rows) {
    const k = [r['cohort'], r['path'], r['state'], r['metric']].join('\u0000');
    sessions.set(k, (sessions.get(k) ?? 0) + 1);
    const v = num(r['cell_session_spread']);
    if (v !== null && v >= 1) spreads.set(k, v);
  }
  return { spreads, sessions };
}

/** disk.csv when the report has one (reports written before issue 18 have none). */
function readDisks(src: ReportTexts): PublishedDisk[] {
  if (src.text('disk.csv') === null) return [];
  return readTable(src, 'disk.csv', ['session', 'moment', 'write_mb_s', 'read_mb_s']).rows.map((r) => ({
    session: num(r['session']) ?? 0,
    attempt: num(r['attempt']) ?? 1,
    moment: r['moment'] ?? '',
    writeMBps: num(r['write_mb_s']),
    readMBps: num(r['read_mb_s']),
  }));
}
