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
import { publishedRunOf, type PublishedRun } from './cross-class.js';

/** What the analysis reads of an archived run.json (the archive's RunRecord, benchgraph-run/1). */
interface ArchivedRecord {
  stages: Record<string, { uses: string; key: string; outputDigest: string }> | null;
  sessions: { fingerprint: HostFingerprint | null }[];
  /** The host canary (analysis.json's, kept since 2026-12-04): per piece the run median. */
  canary?: { pieces?: { piece: string; medianMs: number | null }[] };
}

/** The files of an archived run the analysis reads: samples.csv for a same-key replicate, the comparison files for the host classes (cross-class.ts). */
const PUBLISHED_FILES = ['run.json', 'samples.csv', 'statistics.csv', 'differences.csv'];

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
    .flatMap((name) => PUBLISHED_FILES.map((f) => join(dir, name, f)));
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

/** What the analysis reads of an archive, in one pass over its run.json files. */
export interface ArchiveReading {
  /** The runs whose sample stage had the key asked for, this run itself left out. */
  replicates: ReplicateRun[];
  /** Per archived run with a canary (run.json `canary`), per piece the run median: the spread the host-class rule rests on. */
  canaries: Record<string, number | null>[];
  /** The canary of this run's own archived copy (its sample output is the one under analysis), for samples that hold no canary launch (an import of samples.csv); null when none is archived. */
  ownCanary: Record<string, number | null> | null;
  /** Every other archived run with its comparison files, whatever its key: the host classes' runs (cross-class.ts). */
  published: PublishedRun[];
}

export function readArchive(dir: string, sample: SampleIdentity): ArchiveReading {
  const out: ArchiveReading = { replicates: [], canaries: [], ownCanary: null, published: [] };
  for (const name of runFolders(dir)) {
    const recordFile = join(dir, name, 'run.json');
    let record: ArchivedRecord;
    try {
      record = JSON.parse(readFileSync(recordFile, 'utf8')) as ArchivedRecord;
    } catch (e) {
      throw new UserError(`not JSON: ${(e as Error).message}`, { file: recordFile }, 'restore the archived run (git checkout) or remove its folder');
    }
    const pieces = record.canary?.pieces ?? [];
    const canary = pieces.length ? Object.fromEntries(pieces.map((p) => [p.piece, p.medianMs])) : null;
    if (canary) out.canaries.push(canary);
    const stage = sampleStageOf(record, sample.key);
    if (stage?.outputDigest === sample.outputDigest) {
      out.ownCanary ??= canary;
      continue;
    }
    const [statistics, differences] = ['statistics.csv', 'differences.csv'].map((f) => join(dir, name, f));
    if (existsSync(statistics!) && existsSync(differences!))
      out.published.push(
        publishedRunOf(name, record.stages?.['sample']?.key ?? null, canary, readFileSync(statistics!, 'utf8'), readFileSync(differences!, 'utf8')),
      );
    if (!stage) continue;
    const samplesFile = join(dir, name, 'samples.csv');
    out.replicates.push({
      id: name,
      host: hostOf(record.sessions.map((s) => s.fingerprint)),
      rows: replicateRowsFromCsv(readFileSync(samplesFile, 'utf8'), samplesFile),
      canary,
    });
  }
  return out;
}

export function readReplicates(dir: string, sample: SampleIdentity): ReplicateRun[] {
  return readArchive(dir, sample).replicates;
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
