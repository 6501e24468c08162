// Reads the replicates of a run from a folder of archived runs
// (reports/<experiment>/runs/<run>/ with run.json and samples.csv,
// harness/history/archive-run.ts): the runs whose sample stage had the given
// key. A run whose sample output is the one being analysed is this run
// itself, archived, and is left out.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import type { HostFingerprint } from '../process/host-fingerprint.js';
import { hostOf, replicateRowsFromCsv, type ReplicateRun } from './replicate-runs.js';

/** What the analysis reads of an archived run.json (the archive's RunRecord, benchgraph-run/1). */
interface ArchivedRecord {
  stages: Record<string, { uses: string; key: string; outputDigest: string }> | null;
  sessions: { fingerprint: HostFingerprint | null }[];
  /** The host canary (analysis.json's, kept since 2026-12-04): per piece the run median. */
  canary?: { pieces?: { piece: string; medianMs: number | null }[] };
}

/** The run folders of an archive, sorted by name (date first). */
function runFolders(dir: string): string[] {
  if (!existsSync(dir))
    throw new UserError(`no such folder: ${dir}`, { key: 'with.replicates' }, 'give a folder of archived runs, e.g. reports/<experiment>/runs');
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'run.json')) && existsSync(join(dir, e.name, 'samples.csv')))
    .map((e) => e.name)
    .sort();
}

/**
 * The files of the archive the analysis reads: they enter its key. A run
 * whose record holds one of `ownOutputs` (the upstream sample output under
 * analysis) is this run archived, which readReplicates leaves out, so it is
 * left out of the key too: publishing the run must not change its analysis.
 */
export function replicateFiles(dir: string, ownOutputs: readonly string[] = [], baseDir = '.'): string[] {
  if (!existsSync(resolve(baseDir, dir))) return [];
  return runFolders(resolve(baseDir, dir))
    .filter((name) => {
      if (!ownOutputs.length) return true;
      try {
        const record = JSON.parse(readFileSync(resolve(baseDir, dir, name, 'run.json'), 'utf8')) as ArchivedRecord;
        // the run's own archived copy holds every upstream output; a same-key rerun shares some of them (verify's
        // artifact hashes, pin's) but never the sample's, so one shared digest does not make a run this one
        const digests = new Set(Object.values(record.stages ?? {}).map((s) => s.outputDigest));
        return !ownOutputs.every((d) => digests.has(d));
      } catch {
        return true; // unreadable: its digest joins the key, and readReplicates names the file
      }
    })
    .flatMap((name) => [join(dir, name, 'run.json'), join(dir, name, 'samples.csv')]);
}

export interface SampleIdentity {
  /** The sample stage's key. */
  key: string;
  /** Its output digest: an archived run with this one is the run under analysis. */
  outputDigest: string;
}

/** The sample stage of an archived record: the stage that `uses` a sampling kind and has the key asked for. */
function sampleStageOf(record: ArchivedRecord, key: string): { outputDigest: string } | null {
  for (const s of Object.values(record.stages ?? {})) if (s.key === key) return s;
  return null;
}

export function readReplicates(dir: string, sample: SampleIdentity): ReplicateRun[] {
  const out: ReplicateRun[] = [];
  for (const name of runFolders(dir)) {
    const recordFile = join(dir, name, 'run.json');
    let record: ArchivedRecord;
    try {
      record = JSON.parse(readFileSync(recordFile, 'utf8')) as ArchivedRecord;
    } catch (e) {
      throw new UserError(`not JSON: ${(e as Error).message}`, { file: recordFile }, 'restore the archived run (git checkout) or remove its folder');
    }
    const stage = sampleStageOf(record, sample.key);
    if (!stage || stage.outputDigest === sample.outputDigest) continue;
    const samplesFile = join(dir, name, 'samples.csv');
    out.push({
      id: name,
      host: hostOf(record.sessions.map((s) => s.fingerprint)),
      rows: replicateRowsFromCsv(readFileSync(samplesFile, 'utf8'), samplesFile),
      canary: record.canary?.pieces?.length ? Object.fromEntries(record.canary.pieces.map((p) => [p.piece, p.medianMs])) : null,
    });
  }
  return out;
}

/** Archived runs grouped by their sample stage's key (stage id `sample`), groups of two runs or more: the archive's replicates. */
export function replicateGroups(dir: string, stageId = 'sample'): { key: string; runs: ReplicateRun[] }[] {
  const byKey = new Map<string, string[]>();
  for (const name of runFolders(dir)) {
    const record = JSON.parse(readFileSync(join(dir, name, 'run.json'), 'utf8')) as ArchivedRecord;
    const key = record.stages?.[stageId]?.key;
    if (key) (byKey.get(key) ?? byKey.set(key, []).get(key)!).push(name);
  }
  return [...byKey.entries()]
    .filter(([, names]) => names.length >= 2)
    .map(([key, names]) => ({ key, runs: readReplicates(dir, { key, outputDigest: '' }).filter((r) => names.includes(r.id)) }));
}

/** Per archived run of the folder (run.json `canary`), per piece the run median: the spread the host-class rule rests on. */
export function archivedCanaries(dir: string): Record<string, number | null>[] {
  if (!existsSync(dir)) return [];
  return runFolders(dir).flatMap((name) => {
    try {
      const pieces = (JSON.parse(readFileSync(join(dir, name, 'run.json'), 'utf8')) as ArchivedRecord).canary?.pieces ?? [];
      return pieces.length ? [Object.fromEntries(pieces.map((p) => [p.piece, p.medianMs]))] : [];
    } catch {
      return [];
    }
  });
}

/** The canary of this run's own archived copy (the run whose sample output is the one under analysis), for samples that hold no canary launch (an import of samples.csv); null when none is archived. */
export function ownArchivedCanary(dir: string, sample: SampleIdentity): Record<string, number | null> | null {
  if (!existsSync(dir)) return null;
  for (const name of runFolders(dir)) {
    try {
      const record = JSON.parse(readFileSync(join(dir, name, 'run.json'), 'utf8')) as ArchivedRecord;
      const stage = sampleStageOf(record, sample.key);
      const pieces = record.canary?.pieces ?? [];
      if (stage?.outputDigest === sample.outputDigest && pieces.length) return Object.fromEntries(pieces.map((p) => [p.piece, p.medianMs]));
    } catch {
      /* an unreadable record is named by readReplicates */
    }
  }
  return null;
}
