// Effects: reads the local frozen run the lock file names: for each stage its
// manifest.json bytes and the files of its outputs/ and observations/ as the
// manifest records them. A stage the lock names but the store lacks is a
// UserError: there is nothing frozen to push.
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { UserError } from '../errors.js';
import { lockFileOf, readLock, renderLock, type LockFile } from '../engine/lock-file.js';
import { Store, type StageManifest } from '../engine/store.js';
import type { StageFiles } from './run-artifact.js';

export interface LocalRun {
  lock: LockFile;
  lockText: string;
  stages: StageFiles[];
}

export function readLocalRun(pipelineFile: string, dataDir: string): LocalRun {
  const lock = readLock(pipelineFile, dataDir);
  const lockFile = relative(process.cwd(), lockFileOf(pipelineFile, dataDir)) || lockFileOf(pipelineFile, dataDir);
  if (!lock || !Object.keys(lock.stages).length) throw new UserError('no lock file: no frozen run to push', { file: lockFile }, 'run `pipeline run` first');
  const store = new Store(dataDir);
  const stages: StageFiles[] = [];
  for (const [id, entry] of Object.entries(lock.stages).sort()) {
    const dir = store.stageDir(entry.uses, entry.key);
    const manifestFile = join(dir, 'manifest.json');
    if (!existsSync(manifestFile)) {
      throw new UserError(
        `stage '${id}' of the lock has no frozen output in ${dataDir}`,
        { file: lockFile, key: id },
        'run `pipeline run` to freeze it, or pass the data folder it ran in: --data DIR',
      );
    }
    const manifestBytes = readFileSync(manifestFile);
    const manifest = JSON.parse(manifestBytes.toString('utf8')) as StageManifest;
    if (manifest.outputDigest !== entry.outputDigest) {
      throw new UserError(
        `stage '${id}' in the store has output ${manifest.outputDigest.slice(0, 12)}, the lock says ${entry.outputDigest.slice(0, 12)}`,
        { file: lockFile, key: id },
        'run `pipeline run` so the lock and the store agree',
      );
    }
    const files = [
      ...manifest.files.map((f) => ({ ...f, under: 'outputs' })),
      ...(manifest.observationFiles ?? []).map((f) => ({ ...f, under: 'observations' })),
    ].map((f) => {
      const file = join(dir, f.under, f.path);
      if (existsSync(file) && lstatSync(file).isSymbolicLink()) {
        throw new UserError(
          `${f.under}/${f.path} of stage '${id}' is a symbolic link, which a registry blob cannot hold`,
          { file },
          'freeze a copy of the file instead of a link',
        );
      }
      return { title: `${f.under}/${f.path}`, digest: `sha256:${f.sha256}`, sizeBytes: f.bytes, file };
    });
    stages.push({ id, uses: entry.uses, key: entry.key, outputDigest: entry.outputDigest, endedAt: manifest.endedAt, manifestBytes, files });
  }
  const lockText = renderLock({ lockVersion: 1, pipeline: lock.pipeline, ...(lock.set?.length ? { set: lock.set } : {}), stages: lock.stages });
  return { lock, lockText, stages };
}
