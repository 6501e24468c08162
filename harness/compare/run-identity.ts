// Which run a report folder holds, for `pipeline compare`: its run digest
// (digest/run-digest.ts archivedRunDigest, as the archive names the run)
// and when it was measured (run.json `time`). From the folder's own run.json
// (an archived run folder), else from the archived run under runs/ whose
// statistics.csv is the same file as the folder's; else unknown digest, with
// the end of the formal launches from provenance.csv as the date.
import { existsSync, readFileSync } from 'node:fs';
import { archivedRunsOf } from './archived-runs-of.js';
import { join } from 'node:path';
import { archivedRunDigest } from '../digest/run-digest.js';
import { parseCsvTable } from './csv-table.js';

export interface RunIdentity {
  /** Full run digest; null when the folder holds no archived run of its statistics. */
  digest: string | null;
  /** When the run was measured (ISO time); null when neither run.json nor provenance.csv says. */
  time: string | null;
  /** The archived run's folder name (`<date>-<digest prefix>`), or null. */
  runFolder: string | null;
}

function fromRunJson(file: string, runFolder: string | null): RunIdentity {
  const record = JSON.parse(readFileSync(file, 'utf8')) as { time?: string; runDigest?: string };
  return { digest: archivedRunDigest(record), time: typeof record.time === 'string' ? record.time : null, runFolder };
}

/** The end of the formal launches of provenance.csv's `measured` row (`start..end`). */
function measuredEnd(folder: string): string | null {
  const file = join(folder, 'provenance.csv');
  if (!existsSync(file)) return null;
  const row = parseCsvTable(readFileSync(file, 'utf8')).rows.find((r) => r['kind'] === 'measured');
  const range = row?.['version'] ?? '';
  return range.split('..').at(-1) || null;
}

export function runIdentity(folder: string): RunIdentity {
  const own = join(folder, 'run.json');
  if (existsSync(own)) return fromRunJson(own, folder.replace(/\/+$/, '').split('/').at(-1) ?? null);
  const run = archivedRunsOf(folder).next().value;
  if (run) return fromRunJson(run.runJson, run.id);
  return { digest: null, time: measuredEnd(folder), runFolder: null };
}

/**
 * How a reproduction names a run: by its archive name and run digest only
 * (``run `2026-12-01-25bf80d30cc6`, digest `25bf80d30cc6…`, measured 2026-12-01T01:14:10.875Z``),
 * never by the report folder it was read from, which a later run replaces. A folder with no
 * archived run has no other name: it is named with that said.
 */
export function runIdentityText(r: RunIdentity, folder: string): string {
  const name =
    r.digest === null ? `\`${folder}\` (no archived run; run digest unknown)` : `${r.runFolder ? `run \`${r.runFolder}\`, ` : ''}digest \`${r.digest}\``;
  return `${name}, measured ${r.time ?? 'at an unknown date'}`;
}
