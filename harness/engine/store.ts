// The store of frozen stage outputs under the data folder:
//   stages/<kind>/<key>/outputs/ observations/ manifest.json   (frozen, never changed)
//   tmp/<kind>-<key>-<pid>-<n>/                       (a stage being written)
//   work/<kind>/<key>/                                 (resumable scratch, e.g. journals)
// A stage is written into tmp/ and renamed into stages/ in one step, so a
// crash never leaves a half stage that looks fresh.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileDigest } from '../digest/merkle.js';
import type { HostFacts } from './host-facts.js';
import type { KeyInputs } from './stage-key.js';
import { isAlive } from '../process/pid.js';

export interface StageManifest {
  manifestVersion: 1;
  id: string;
  kind: string;
  key: string;
  keyInputs: KeyInputs;
  /** Merkle root of the products (outputs/): what downstream keys hold. */
  outputDigest: string;
  files: FileDigest[];
  /** Merkle root of the observations (observations/): audited, shown, not in downstream keys. Absent in manifests written before the split. */
  observationsDigest?: string;
  observationFiles?: FileDigest[];
  startedAt: string;
  endedAt: string;
  seconds: number;
  host: HostFacts;
}

export class Store {
  constructor(readonly dataDir: string) {}

  stageDir(kind: string, key: string): string {
    return join(this.dataDir, 'stages', kind, key);
  }

  outputsDir(kind: string, key: string): string {
    return join(this.stageDir(kind, key), 'outputs');
  }

  observationsDir(kind: string, key: string): string {
    return join(this.stageDir(kind, key), 'observations');
  }

  workDir(kind: string, key: string): string {
    return join(this.dataDir, 'work', kind, key);
  }

  readManifest(kind: string, key: string): StageManifest | null {
    const file = join(this.stageDir(kind, key), 'manifest.json');
    if (!existsSync(file)) return null;
    return JSON.parse(readFileSync(file, 'utf8')) as StageManifest;
  }

  /** A fresh temporary folder for a stage run; its outputs/ goes to the stage. */
  makeTemp(kind: string, key: string): string {
    const base = join(this.dataDir, 'tmp');
    mkdirSync(base, { recursive: true });
    for (let n = 0; ; n++) {
      const dir = join(base, `${kind}-${key.slice(0, 16)}-${process.pid}-${n}`);
      if (!existsSync(dir)) {
        mkdirSync(join(dir, 'outputs'), { recursive: true });
        mkdirSync(join(dir, 'observations'), { recursive: true });
        return dir;
      }
    }
  }

  /** Writes the manifest into the temp folder and renames it into place. */
  freeze(tempDir: string, manifest: StageManifest): void {
    writeFileSync(join(tempDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    const target = this.stageDir(manifest.kind, manifest.key);
    mkdirSync(join(this.dataDir, 'stages', manifest.kind), { recursive: true });
    if (existsSync(target)) {
      // A forced or volatile stage ran again under the same key: the new
      // outputs replace the old ones. Moved aside first, so a crash between
      // the two renames leaves no folder (stale, reruns) rather than a mix.
      const old = `${tempDir}-replaced`;
      renameSync(target, old);
      renameSync(tempDir, target);
      rmSync(old, { recursive: true, force: true });
      return;
    }
    renameSync(tempDir, target);
  }

  /** Removes temporary folders left by runs whose process is gone. */
  sweepTemp(): string[] {
    const base = join(this.dataDir, 'tmp');
    if (!existsSync(base)) return [];
    const removed: string[] = [];
    for (const name of readdirSync(base)) {
      const pid = tempOwnerPid(name);
      if (pid !== null && pid !== process.pid && isAlive(pid)) continue;
      rmSync(join(base, name), { recursive: true, force: true });
      removed.push(name);
    }
    return removed;
  }

  /** Every frozen stage as [kind, key]. */
  listFrozen(): [string, string][] {
    const base = join(this.dataDir, 'stages');
    if (!existsSync(base)) return [];
    const out: [string, string][] = [];
    for (const kind of readdirSync(base).sort()) {
      for (const key of readdirSync(join(base, kind)).sort()) out.push([kind, key]);
    }
    return out;
  }
}

/** The pid in a temporary folder's name (`<kind>-<key16>-<pid>-<n>`, optionally `-replaced`), or null. */
export function tempOwnerPid(name: string): number | null {
  const m = /-(\d+)-\d+(?:-replaced)?$/.exec(name);
  return m ? Number(m[1]) : null;
}
