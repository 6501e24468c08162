// Files a published report as an immutable archived run:
// reports/<experiment>/runs/<date>-<run id>/ (run-record.ts), the run id being
// the one `pipeline push` prints and the registry's tag holds. A run whose
// samples (or, without samples.csv, statistics and differences) are already
// archived is not filed again, so republishing an unchanged run adds nothing.
// The folder is written beside its place and renamed into it, never edited.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsvTable } from '../compare/csv-table.js';
import { canonicalJson } from '../digest/canonical-json.js';
import { sha256Hex } from '../digest/sha256.js';
import { archivedRunDigest, runDigestOf, RUN_ID_LENGTH, type RunStageDigests } from '../digest/run-digest.js';
import { ARCHIVED_FILES, RUN_FILE, RUN_FORMAT, type ArchivedSession, type ArchivedStage, type RunCanary, type RunRecord } from './run-record.js';

export interface ArchiveInput {
  /** The report folder whose CSVs are archived. */
  reportDir: string;
  /** reports/<experiment>/runs */
  runsDir: string;
  experiment: string;
  source: RunRecord['source'];
  label?: string | null;
  stages: Record<string, ArchivedStage> | null;
  sessions: ArchivedSession[];
  canary?: RunCanary | null;
}

export interface ArchiveOutcome {
  id: string;
  folder: string;
  action: 'filed' | 'already archived';
}

/** The run digest: the one run.json records (the store's, of its stages), else, for runs filed before and imported ones, sha256 of run.json's canonical JSON. */
export function runDigest(record: RunRecord): string {
  return archivedRunDigest(record);
}

/** sha256 of the record's canonical JSON without its recordDigest: keeps every field checkable once the folder is named after the run digest. */
export function recordDigestOf(record: RunRecord): string {
  const { recordDigest: _, ...rest } = record;
  return sha256Hex(canonicalJson(rest));
}

/** The run digest of archived stages, as the store computes it; null when a stage has no manifest digest (filed before they were kept). */
export function storeRunDigest(experiment: string, stages: Record<string, ArchivedStage> | null): string | null {
  if (!stages || !Object.keys(stages).length) return null;
  const records: Record<string, RunStageDigests> = {};
  for (const [id, s] of Object.entries(stages)) {
    if (!s.manifest) return null;
    records[id] = { uses: s.uses, key: s.key, outputDigest: s.outputDigest, manifest: s.manifest };
  }
  return runDigestOf(experiment, records);
}

/** `<date>-<run id>`: the archived folder's name. */
export function runId(record: RunRecord): string {
  return `${record.time.slice(0, 10)}-${runDigest(record).slice(0, RUN_ID_LENGTH)}`;
}

/** When the run was measured: its last session's end, else its last formal launch, else the statistics file's time. */
export function runTime(reportDir: string, sessions: readonly ArchivedSession[]): string {
  const ends = sessions
    .map((s) => s.endedAt)
    .filter(Boolean)
    .sort();
  if (ends.length) return ends[ends.length - 1]!;
  const samples = join(reportDir, 'samples.csv');
  if (existsSync(samples)) {
    const starts = parseCsvTable(readFileSync(samples, 'utf8'))
      .rows.filter((r) => (r['phase'] ?? 'formal') === 'formal')
      .map((r) => r['started_at'] ?? '')
      .filter(Boolean)
      .sort();
    if (starts.length) return starts[starts.length - 1]!;
  }
  return statSync(join(reportDir, 'statistics.csv')).mtime.toISOString();
}

/** The archived run that holds the data of the report folder `reportDir`, if one does (a republished unchanged run). */
export function alreadyArchived(reportDir: string, runsDir: string): ArchiveOutcome | null {
  return sameArchivedRun(runsDir, archivedFileDigests(reportDir));
}

function archivedFileDigests(reportDir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of ARCHIVED_FILES) {
    const file = join(reportDir, name);
    if (existsSync(file)) files[name] = sha256Hex(readFileSync(file));
  }
  return files;
}

function sameArchivedRun(runsDir: string, files: Record<string, string>): ArchiveOutcome | null {
  const same = archivedRecords(runsDir).find((r) => identity(r.record.files) === identity(files));
  return same ? { id: same.id, folder: join(runsDir, same.id), action: 'already archived' } : null;
}

/** The files that identify a run's data: samples.csv when archived, else statistics and differences. */
function identity(files: Record<string, string>): string {
  return files['samples.csv'] ? `samples:${files['samples.csv']}` : `tables:${files['statistics.csv']}:${files['differences.csv']}`;
}

export function archivedRecords(runsDir: string): { id: string; record: RunRecord }[] {
  if (!existsSync(runsDir)) return [];
  return readdirSync(runsDir)
    .filter((n) => !n.startsWith('.') && existsSync(join(runsDir, n, RUN_FILE)))
    .sort()
    .map((id) => ({ id, record: JSON.parse(readFileSync(join(runsDir, id, RUN_FILE), 'utf8')) as RunRecord }));
}

export function archiveRun(input: ArchiveInput): ArchiveOutcome {
  const files = archivedFileDigests(input.reportDir);
  const same = sameArchivedRun(input.runsDir, files);
  if (same) return same;
  const record: RunRecord = {
    format: RUN_FORMAT,
    experiment: input.experiment,
    time: runTime(input.reportDir, input.sessions),
    label: input.label ?? null,
    source: input.source,
    stages: input.stages,
    sessions: input.sessions,
    files,
    ...(input.canary ? { canary: input.canary } : {}),
  };
  const digest = storeRunDigest(input.experiment, input.stages);
  if (digest) {
    record.runDigest = digest;
    record.recordDigest = recordDigestOf(record);
  }
  const id = runId(record);
  const folder = join(input.runsDir, id);
  const temp = join(input.runsDir, `.tmp-${process.pid}-${id}`);
  mkdirSync(temp, { recursive: true });
  try {
    for (const name of Object.keys(files)) copyFileSync(join(input.reportDir, name), join(temp, name));
    writeFileSync(join(temp, RUN_FILE), JSON.stringify(record, null, 1) + '\n');
    renameSync(temp, folder);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  return { id, folder, action: 'filed' };
}
