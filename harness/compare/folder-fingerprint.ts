// The host fingerprint of a report folder, for `pipeline compare` and
// `pipeline history`: from an archived run's run.json (every session's
// fingerprint, recorded by the sample stage), else from the archived run of a
// published folder whose statistics.csv is the same file, else the few host
// rows of provenance.csv (CPU model, vCPUs, memory, kernel, virtualization),
// else none.
import { existsSync, readFileSync } from 'node:fs';
import { archivedRunsOf } from './archived-runs-of.js';
import { join } from 'node:path';
import type { HostFingerprint } from '../process/host-fingerprint.js';
import { parseCsvTable } from './csv-table.js';

export interface FolderFingerprint {
  /** Where it came from: `sessions` (recorded per session), `provenance` (host rows of provenance.csv). */
  source: 'sessions' | 'provenance';
  fingerprint: Partial<HostFingerprint>;
  /** Fields on which the folder's sessions disagree among themselves. */
  variesBetweenSessions: string[];
}

interface SessionsShape {
  sessions?: { fingerprint?: HostFingerprint | null }[];
}

function fromRunJson(file: string): FolderFingerprint | null {
  const record = JSON.parse(readFileSync(file, 'utf8')) as SessionsShape;
  const prints = (record.sessions ?? []).map((s) => s.fingerprint).filter((f): f is HostFingerprint => !!f);
  if (!prints.length) return null;
  const first = prints[0]!;
  const varies = (Object.keys(first) as (keyof HostFingerprint)[]).filter((k) => prints.some((p) => JSON.stringify(p[k]) !== JSON.stringify(first[k])));
  return { source: 'sessions', fingerprint: first, variesBetweenSessions: varies };
}

/** Pure: the host rows of provenance.csv as a partial fingerprint. */
export function provenanceFingerprint(provenanceCsv: string): Partial<HostFingerprint> {
  const rows = parseCsvTable(provenanceCsv).rows.filter((r) => r['kind'] === 'host');
  const value = (name: string): string | undefined => rows.find((r) => r['name'] === name)?.['version'] || undefined;
  const out: Partial<HostFingerprint> = {};
  const cpu = value('cpu_model');
  if (cpu) out.cpuModel = cpu;
  const vcpus = Number(value('vcpus'));
  if (Number.isFinite(vcpus) && vcpus > 0) out.cpuCount = vcpus;
  const memory = Number(value('memory_bytes'));
  if (Number.isFinite(memory) && memory > 0) out.memoryBytes = memory;
  const kernel = value('sample_kernel') ?? value('kernel');
  if (kernel) out.kernelRelease = kernel;
  const virt = value('virtualization');
  if (virt) out.virtualization = virt;
  return out;
}

export function folderFingerprint(folder: string): FolderFingerprint | null {
  const runJson = join(folder, 'run.json');
  if (existsSync(runJson)) {
    const f = fromRunJson(runJson);
    if (f) return f;
  }
  for (const run of archivedRunsOf(folder)) {
    const f = fromRunJson(run.runJson);
    if (f) return f;
  }
  const provenance = join(folder, 'provenance.csv');
  if (existsSync(provenance)) {
    const fingerprint = provenanceFingerprint(readFileSync(provenance, 'utf8'));
    if (Object.keys(fingerprint).length) return { source: 'provenance', fingerprint, variesBetweenSessions: [] };
  }
  return null;
}
