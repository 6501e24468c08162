// Replicates: runs whose sample stage had the same key (the same design,
// paths, images and launch code), so whatever differs between them is
// run-to-run or host-to-host variation. Pure: an archived run's record and
// samples.csv text in, its formal launches and its host out.
//
// A host is named by its fingerprint (harness/process/host-fingerprint.ts):
// the digest of the fields that describe the machine and its kernel — CPU
// model, microcode, CPU count, memory, kernel release, version and command
// line, virtualisation. Fields a run sets up itself (Docker storage driver,
// data folder mount) or measures (steal) do not name the host.
import { UserError } from '../errors.js';
import { csvRecords } from '../db/csv-records.js';
import { canonicalJson } from '../digest/canonical-json.js';
import { sha256Hex } from '../digest/sha256.js';
import type { HostFingerprint } from '../process/host-fingerprint.js';

/** One valid formal launch of a replicate run. */
export interface ReplicateRow {
  cohort: string;
  path: string;
  state: string;
  session: number;
  round: number;
  readyMs: number | null;
  completionMs: number | null;
}

export interface ReplicateRun {
  /** The archived run's folder name, or 'this run'. */
  id: string;
  /** The host's fingerprint digest (12 hex digits), or 'unknown' when no session recorded one. */
  host: string;
  rows: ReplicateRow[];
  /** Per piece, the run's host-canary median (run.json `canary`); absent or null when it recorded none. */
  canary?: Record<string, number | null | undefined> | null;
}

/** The fields of a fingerprint that name the machine. */
const HOST_FIELDS = ['cpuModel', 'microcode', 'cpuCount', 'memoryBytes', 'kernelRelease', 'kernelVersion', 'kernelCmdline', 'virtualization'] as const;

/** The host of a run: its first session's fingerprint digest. */
export function hostOf(fingerprints: readonly (HostFingerprint | null | undefined)[]): string {
  const fp = fingerprints.find((f) => f);
  if (!fp) return 'unknown';
  return sha256Hex(canonicalJson(Object.fromEntries(HOST_FIELDS.map((k) => [k, fp[k]])))).slice(0, 12);
}

const REQUIRED = ['cohort', 'path', 'state', 'phase', 'session', 'round', 'ok', 'ready_ms', 'completion_ms'] as const;

/** The valid formal launches of a samples.csv (the report's, with every launch). */
export function replicateRowsFromCsv(text: string, file: string): ReplicateRow[] {
  const recs = csvRecords(text.replace(/^\uFEFF/, ''));
  if (recs.length === 0) throw new UserError('the file is empty; expected a samples.csv header', { file, line: 1 }, 'give the folder of an archived run');
  const header = recs[0]!.fields.map((h) => h.trim());
  for (const c of REQUIRED) {
    if (!header.includes(c))
      throw new UserError(`missing column ${c}`, { file, line: 1 }, 'give the samples.csv of an archived run (reports/<experiment>/runs/<run>/)');
  }
  const at = Object.fromEntries(header.map((h, i) => [h, i])) as Record<string, number>;
  const num = (raw: string | undefined): number | null => {
    if (raw === undefined || raw.trim() === '') return null;
    const v = Number(raw);
    return Number.isFinite(v) ? v : null;
  };
  const rows: ReplicateRow[] = [];
  for (const { line, fields } of recs.slice(1)) {
    const f = (c: string): string => fields[at[c]!] ?? '';
    if (f('phase') !== 'formal' || f('ok') !== 'true') continue;
    const session = num(f('session'));
    const round = num(f('round'));
    if (session === null || round === null) throw new UserError('session and round must be numbers', { file, line }, 'give an unedited archived samples.csv');
    rows.push({ cohort: f('cohort'), path: f('path'), state: f('state'), session, round, readyMs: num(f('ready_ms')), completionMs: num(f('completion_ms')) });
  }
  return rows;
}
