// Reads the runs `pipeline history` looks at: an experiment name (its
// reports/<name>/runs/ archive), a folder holding runs/, one archived run
// folder (with run.json), or a plain published report folder. A folder
// without the files it needs is a UserError naming it.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { UserError } from '../errors.js';
import { parseCsvTable } from '../compare/csv-table.js';
import { folderFingerprint } from '../compare/folder-fingerprint.js';
import { readPublishedReport } from '../compare/read-published-report.js';
import { archivedRecords, runDigest, runTime } from './archive-run.js';
import { archivedRunsOf } from '../compare/archived-runs-of.js';
import { RUNS_DIR } from './published-run.js';
import type { HistoryRun, ProvenanceItem } from './history-run.js';
import { RUN_FILE, type RunRecord } from './run-record.js';

const HINT = 'name an experiment with archived runs (reports/<name>/runs/), a folder holding runs/, an archived run, or a published report folder';

const num = (raw: string | undefined): number | null => {
  if (raw === undefined || raw.trim() === '') return null;
  const v = Number(raw);
  return Number.isFinite(v) ? v : null;
};

function provenanceItems(folder: string): ProvenanceItem[] {
  const file = join(folder, 'provenance.csv');
  if (!existsSync(file)) return [];
  return parseCsvTable(readFileSync(file, 'utf8'))
    .rows.filter((r) => r['kind'] === 'binary' || (r['kind'] ?? '').startsWith('image'))
    .map((r) => ({ kind: r['kind']!, name: r['name']!, version: r['version'] ?? '', sha256: r['sha256'] ?? '' }));
}

function sessionMedians(folder: string): HistoryRun['sessionMedians'] {
  const file = join(folder, 'sessions.csv');
  const out: HistoryRun['sessionMedians'] = {};
  if (!existsSync(file)) return out;
  const table = parseCsvTable(readFileSync(file, 'utf8'));
  for (const column of ['cohort', 'path', 'state', 'metric', 'session', 'p50_ms']) {
    if (!table.header.includes(column)) throw new UserError(`missing column ${column}`, { file, line: 1 }, `the header has ${table.header.join(', ')}`);
  }
  table.rows.forEach((r, i) => {
    const v = num(r['p50_ms']);
    if (v === null) throw new UserError(`p50_ms is not a number: '${r['p50_ms']}'`, { file, line: i + 2, key: 'p50_ms' }, 'a session median in milliseconds');
    const key = [r['cohort'], r['path'], r['state'], r['metric']].join('\u0000');
    (out[key] ??= []).push(v);
  });
  return out;
}

export function readRunFolder(folder: string, shownAs = folder): HistoryRun {
  const report = readPublishedReport(folder);
  const recordFile = join(folder, RUN_FILE);
  const record = existsSync(recordFile) ? (JSON.parse(readFileSync(recordFile, 'utf8')) as RunRecord) : null;
  const base = folder.replace(/\/+$/, '').split('/').pop() ?? folder;
  const archived = record ? null : archivedRunsOf(folder).next().value;
  const digest = record ? runDigest(record) : archived ? runDigest(JSON.parse(readFileSync(archived.runJson, 'utf8')) as RunRecord) : null;
  return {
    id: record ? base : archived ? `${archived.id} (published folder)` : `${base} (not archived)`,
    digest,
    folder: shownAs,
    time: record?.time ?? runTime(folder, []),
    label: record?.label ?? null,
    record,
    report,
    sessionMedians: sessionMedians(folder),
    provenance: provenanceItems(folder),
    fingerprint: folderFingerprint(folder),
  };
}

/** Runs of one argument, in time order within it. */
export function readRunsOf(arg: string, projectDir: string): HistoryRun[] {
  const asFolder = existsSync(arg) && statSync(arg).isDirectory() ? arg : null;
  const asExperiment = join(projectDir, 'reports', arg, RUNS_DIR);
  const runsDir = asFolder ? (existsSync(join(asFolder, RUNS_DIR)) ? join(asFolder, RUNS_DIR) : null) : existsSync(asExperiment) ? asExperiment : null;
  if (runsDir) {
    const runs = archivedRecords(runsDir).map((r) => readRunFolder(join(runsDir, r.id), relative(process.cwd(), join(runsDir, r.id)) || join(runsDir, r.id)));
    if (!runs.length) throw new UserError('no archived runs', { file: runsDir }, HINT);
    return runs.sort((a, b) => a.time.localeCompare(b.time) || a.id.localeCompare(b.id));
  }
  if (asFolder) return [readRunFolder(asFolder)];
  throw new UserError(`no such experiment or folder: ${arg}`, { key: 'history' }, HINT);
}
