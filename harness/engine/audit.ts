// `pipeline audit`: re-hash every frozen output the lock file references,
// every pinned binary recorded in a pins.json, and every published copy
// (reports) with its runs/ archive; list each file that is missing or whose digest differs,
// and each published figure that does not follow from the published samples.csv.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectDirOf } from '../config/project-dir.js';
import type { PipelineConfig } from '../config/pipeline-config.js';
import { readLock, lockFileOf } from './lock-file.js';
import { listFileDigests, merkleRoot, type FileDigest } from '../digest/merkle.js';
import { sha256File } from '../digest/sha256.js';
import { projectStageRegistry, type StageRegistry } from './stage-registry.js';
import { Store } from './store.js';
import { UserError } from '../errors.js';
import { checkImageDigests } from '../artifacts/image-digests.js';
import type { Pins } from '../contract/exchange-files.js';
import { auditArchive } from '../history/audit-archive.js';
import { RUNS_DIR } from '../history/published-run.js';
import { recomputeFigures } from '../history/recompute-figures.js';
import { resolvePinnedPath } from '../artifacts/binary-pins.js';

export interface AuditFinding {
  stage: string;
  file: string;
  problem: 'missing' | 'changed' | 'unexpected' | 'differs';
  /** For a figure that differs: its row, column, the published and the recomputed value. */
  detail?: string;
}

/** A published copy's figures recomputed from its own samples.csv (history/recompute-figures.ts). */
export interface FiguresChecked {
  folder: string;
  cells: number;
  differences: number;
  figures: number;
  differ: number;
}

export interface AuditResult {
  checkedFiles: number;
  findings: AuditFinding[];
  /** Stages whose frozen outputs no data folder here holds (a fresh clone): not checked, with what was checked instead. */
  notHere: { stage: string; checked: string }[];
  /** Per published copy with a samples.csv and a statistics.csv: the figures recomputed from the samples. */
  figures: FiguresChecked[];
  /** Published copies of another data folder's run (the lock beside the file names another output): not compared with this folder's. */
  elsewhere?: { stage: string; published: string; digest: string }[];
}

export async function auditPipeline(config: PipelineConfig, dataDir: string, registry: StageRegistry = projectStageRegistry(null)): Promise<AuditResult> {
  const lock = readLock(config.file, dataDir);
  // the lock beside the pipeline file: the run whose reports are published
  const beside = readLock(config.file);
  const elsewhere: AuditResult['elsewhere'] = [];
  // No store at all (a fresh clone, or another machine): nothing was frozen here, so nothing here can be missing;
  // what a clone has is checked instead: each published copy against the lock, its figures against its samples,
  // and the run archive beside it.
  const cloneOnly = !existsSync(join(dataDir, 'stages'));
  const findings: AuditFinding[] = [];
  const notHere: AuditResult['notHere'] = [];
  const figures: FiguresChecked[] = [];
  let checkedFiles = 0;
  const publishedDirOf = async (id: string): Promise<string | null> => {
    const decl = config.stages.find((s) => s.id === id);
    const def = decl ? await registry.load(decl.uses) : null;
    return def?.publishDir ? join(projectDirOf(config.file), def.publishDir(config)) : null;
  };
  /** The figures and the run archive of a published copy. */
  const auditPublished = (id: string, published: string): void => {
    const recomputed = auditFigures(id, published, findings);
    if (recomputed) figures.push(recomputed);
    const archive = auditArchive(join(published, RUNS_DIR));
    checkedFiles += archive.checkedFiles;
    for (const f of archive.findings) findings.push({ stage: `${id} archive`, file: relative(process.cwd(), f.file), problem: f.problem });
  };
  if (!lock && cloneOnly) {
    // a clone of a pipeline whose lock is not committed (pipelines/*.lock): its published copies can still be checked
    for (const decl of config.stages) {
      const published = await publishedDirOf(decl.id);
      if (!published || !existsSync(published)) continue;
      auditPublished(decl.id, published);
      notHere.push({
        stage: decl.id,
        checked: `no lock file here, so not the published copy's digest; its figures against its samples.csv, and its run archive`,
      });
    }
    if (notHere.length) return { checkedFiles, findings, notHere, figures, elsewhere };
  }
  if (!lock) {
    throw new UserError(
      'no lock file: nothing has been frozen for this pipeline yet',
      { file: relative(process.cwd(), lockFileOf(config.file, dataDir)) },
      'run `pipeline run` first',
    );
  }
  const store = new Store(dataDir);
  for (const [id, entry] of Object.entries(lock.stages).sort()) {
    const stageDir = store.stageDir(entry.uses, entry.key);
    const manifest = store.readManifest(entry.uses, entry.key);
    if (!manifest && cloneOnly) {
      const published = await publishedDirOf(id);
      if (!published) {
        notHere.push({ stage: id, checked: 'nothing: its frozen outputs are in the data folder of the machine that ran it' });
        continue;
      }
      const files = (existsSync(published) ? await listFileDigests(published) : []).filter((f) => !f.path.startsWith(RUNS_DIR + '/'));
      checkedFiles += files.length;
      if (!files.length) findings.push({ stage: id, file: relative(process.cwd(), published), problem: 'missing' });
      else if (merkleRoot(files) !== entry.outputDigest) findings.push({ stage: id, file: relative(process.cwd(), published), problem: 'changed' });
      auditPublished(id, published);
      notHere.push({
        stage: id,
        checked: `the published copy ${relative(process.cwd(), published)} against the lock's output digest, its figures against its samples.csv, and its run archive`,
      });
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
    const published = await publishedDirOf(id);
    if (published) {
      // the published copy is the last publishing run's: another data folder's when the lock beside the file names another output
      const besideEntry = beside?.stages[id];
      if (!besideEntry || besideEntry.outputDigest === entry.outputDigest)
        checkedFiles += await compareFiles(id, published, manifest.files, findings, RUNS_DIR + '/');
      else
        elsewhere.push({
          stage: id,
          published: relative(process.cwd(), published),
          digest: besideEntry.outputDigest,
        });
      // The run archive beside the published copy: each archived run against its own run.json.
      auditPublished(id, published);
    }
  }
  return { checkedFiles, findings, notHere, figures, elsewhere };
}

/** A published copy's figures recomputed from its samples.csv; null when it has no samples.csv and statistics.csv. */
function auditFigures(stage: string, published: string, findings: AuditFinding[]): FiguresChecked | null {
  const [samples, statistics, differences] = ['samples.csv', 'statistics.csv', 'differences.csv'].map((f) => join(published, f));
  if (!existsSync(samples!) || !existsSync(statistics!)) return null;
  const r = recomputeFigures({
    samples: readFileSync(samples!, 'utf8'),
    statistics: readFileSync(statistics!, 'utf8'),
    differences: existsSync(differences!) ? readFileSync(differences!, 'utf8') : null,
  });
  for (const m of r.mismatches)
    findings.push({
      stage,
      file: relative(process.cwd(), join(published, m.file)),
      problem: 'differs',
      detail: `${m.row}, ${m.column}: published ${m.published}, recomputed from samples.csv ${m.recomputed}`,
    });
  return { folder: relative(process.cwd(), published), cells: r.cells, differences: r.differences, figures: r.figures, differ: r.mismatches.length };
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
    const path = resolvePinnedPath(b.path);
    if (!existsSync(path)) findings.push({ stage, file: b.path, problem: 'missing' });
    else if ((await sha256File(path)) !== b.sha256) findings.push({ stage, file: b.path, problem: 'changed' });
  }
  return n;
}
