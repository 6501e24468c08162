// `pipeline audit`: re-hash every frozen output the lock file references,
// every pinned binary recorded in a pins.json, and every published copy
// (reports) with its runs/ archive; list each file that is missing or whose digest differs.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectDirOf } from '../config/project-dir.js';
import type { PipelineConfig } from '../config/pipeline-config.js';
import { readLock, lockPathFor } from './lock-file.js';
import { listFileDigests, merkleRoot, type FileDigest } from '../digest/merkle.js';
import { sha256File } from '../digest/sha256.js';
import { projectStageRegistry, type StageRegistry } from './stage-registry.js';
import { Store } from './store.js';
import { UserError } from '../errors.js';
import { checkImageDigests } from '../artifacts/image-digests.js';
import type { Pins } from '../contract/exchange-files.js';
import { auditArchive } from '../history/audit-archive.js';
import { RUNS_DIR } from '../history/published-run.js';

export interface AuditFinding {
  stage: string;
  file: string;
  problem: 'missing' | 'changed' | 'unexpected';
}

export interface AuditResult {
  checkedFiles: number;
  findings: AuditFinding[];
  /** Stages whose frozen outputs no data folder here holds (a fresh clone): not checked, with what was checked instead. */
  notHere: { stage: string; checked: string }[];
}

export async function auditPipeline(config: PipelineConfig, dataDir: string, registry: StageRegistry = projectStageRegistry(null)): Promise<AuditResult> {
  const lock = readLock(config.file);
  if (!lock) {
    throw new UserError(
      'no lock file: nothing has been frozen for this pipeline yet',
      { file: relative(process.cwd(), lockPathFor(config.file)) },
      'run `pipeline run` first',
    );
  }
  const store = new Store(dataDir);
  const findings: AuditFinding[] = [];
  const notHere: AuditResult['notHere'] = [];
  // No store at all (a fresh clone, or another machine): nothing was frozen here, so nothing here can be missing;
  // what a clone has is checked instead: each published copy against the lock, and the run archive beside it.
  const cloneOnly = !existsSync(join(dataDir, 'stages'));
  let checkedFiles = 0;
  for (const [id, entry] of Object.entries(lock.stages).sort()) {
    const stageDir = store.stageDir(entry.uses, entry.key);
    const manifest = store.readManifest(entry.uses, entry.key);
    if (!manifest && cloneOnly) {
      const decl = config.stages.find((s) => s.id === id);
      const def = decl ? await registry.load(decl.uses) : null;
      if (!def?.publishDir) {
        notHere.push({ stage: id, checked: 'nothing: its frozen outputs are in the data folder of the machine that ran it' });
        continue;
      }
      const published = join(projectDirOf(config.file), def.publishDir(config));
      const files = (existsSync(published) ? await listFileDigests(published) : []).filter((f) => !f.path.startsWith(RUNS_DIR + '/'));
      checkedFiles += files.length;
      if (!files.length) findings.push({ stage: id, file: relative(process.cwd(), published), problem: 'missing' });
      else if (merkleRoot(files) !== entry.outputDigest) findings.push({ stage: id, file: relative(process.cwd(), published), problem: 'changed' });
      const archive = auditArchive(join(published, RUNS_DIR));
      checkedFiles += archive.checkedFiles;
      for (const f of archive.findings) findings.push({ stage: `${id} archive`, file: relative(process.cwd(), f.file), problem: f.problem });
      notHere.push({ stage: id, checked: `the published copy ${relative(process.cwd(), published)} against the lock's output digest, and its run archive` });
      continue;
    }
    if (!manifest) {
      findings.push({ stage: id, file: relative(process.cwd(), join(stageDir, 'manifest.json')), problem: 'missing' });
      continue;
    }
    const outputs = store.outputsDir(entry.uses, entry.key);
    checkedFiles += await compareFiles(id, outputs, manifest.files, findings);
    if (merkleRoot(manifest.files) !== entry.outputDigest) {
      findings.push({ stage: id, file: relative(process.cwd(), join(stageDir, 'manifest.json')), problem: 'changed' });
    }
    if (manifest.observationFiles) {
      checkedFiles += await compareFiles(id, store.observationsDir(entry.uses, entry.key), manifest.observationFiles, findings);
      if (merkleRoot(manifest.observationFiles) !== manifest.observationsDigest) {
        findings.push({ stage: id, file: relative(process.cwd(), join(stageDir, 'manifest.json')), problem: 'changed' });
      }
    }
    const pins = join(outputs, 'pins.json');
    if (existsSync(pins)) checkedFiles += await auditPinnedBinaries(id, pins, findings);
    if (existsSync(pins)) checkedFiles += await auditImageDigests(id, outputs, pins, findings);
    const decl = config.stages.find((s) => s.id === id);
    if (decl) {
      const def = await registry.load(decl.uses);
      if (def.publishDir) {
        const published = join(projectDirOf(config.file), def.publishDir(config));
        checkedFiles += await compareFiles(id, published, manifest.files, findings, RUNS_DIR + '/');
        // The run archive beside the published copy: each archived run against its own run.json.
        const archive = auditArchive(join(published, RUNS_DIR));
        checkedFiles += archive.checkedFiles;
        for (const f of archive.findings) findings.push({ stage: `${id} archive`, file: relative(process.cwd(), f.file), problem: f.problem });
      }
    }
  }
  return { checkedFiles, findings, notHere };
}

async function compareFiles(stage: string, dir: string, expected: readonly FileDigest[], findings: AuditFinding[], skipPrefix?: string): Promise<number> {
  const actual = (existsSync(dir) ? await listFileDigests(dir) : []).filter((f) => !skipPrefix || !f.path.startsWith(skipPrefix));
  const byPath = new Map(actual.map((f) => [f.path, f]));
  for (const f of expected) {
    const a = byPath.get(f.path);
    const shown = relative(process.cwd(), join(dir, f.path));
    if (!a) findings.push({ stage, file: shown, problem: 'missing' });
    else if (a.sha256 !== f.sha256) findings.push({ stage, file: shown, problem: 'changed' });
  }
  const want = new Set(expected.map((f) => f.path));
  for (const a of actual) {
    if (!want.has(a.path)) findings.push({ stage, file: relative(process.cwd(), join(dir, a.path)), problem: 'unexpected' });
  }
  return expected.length;
}

/** Every pinned image's blobs hash to their digests, and its layout tags the pinned manifest. */
async function auditImageDigests(stage: string, outputs: string, pinsFile: string, findings: AuditFinding[]): Promise<number> {
  const pins = JSON.parse(readFileSync(pinsFile, 'utf8')) as Pins;
  let n = 0;
  for (const pin of Object.values(pins.images ?? {})) {
    const r = await checkImageDigests(outputs, pin);
    n += r.checked;
    for (const f of r.findings) findings.push({ stage, file: relative(process.cwd(), f.file), problem: f.problem });
  }
  return n;
}

async function auditPinnedBinaries(stage: string, pinsFile: string, findings: AuditFinding[]): Promise<number> {
  const pins = JSON.parse(readFileSync(pinsFile, 'utf8')) as { binaries?: { name: string; path: string; sha256: string }[] };
  let n = 0;
  for (const b of pins.binaries ?? []) {
    n++;
    if (!existsSync(b.path)) findings.push({ stage, file: b.path, problem: 'missing' });
    else if ((await sha256File(b.path)) !== b.sha256) findings.push({ stage, file: b.path, problem: 'changed' });
  }
  return n;
}
