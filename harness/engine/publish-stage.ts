// Copies a frozen stage's products to its publish folder (reports/<experiment>/),
// if it has one, keeping its runs/ archive; a launch report is then filed in
// that archive (harness/history/). Used after a run and after `pipeline pull`.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { PipelineConfig } from '../config/pipeline-config.js';
import { projectDirOf } from '../config/project-dir.js';
import type { StageDefinition } from '../contract/stage.js';
import { alreadyArchived } from '../history/archive-run.js';
import { filePublishedRun, isLaunchReport, RUNS_DIR, type FrozenStage } from '../history/published-run.js';
import { sameFiles } from '../process/same-files.js';
import { sha256Hex } from '../digest/sha256.js';
import type { StageManifest, Store } from './store.js';

export interface FrozenRef {
  id: string;
  uses: string;
  key: string | null;
  manifest: StageManifest | null;
}

/** Publishes stage `p` (a no-op for a stage without publishDir); `run` holds every frozen stage of the run. */
export function publishStage(
  config: PipelineConfig,
  store: Store,
  def: StageDefinition,
  p: FrozenRef,
  run: readonly FrozenRef[],
  label: string | null,
  log: (line: string) => void,
): void {
  const done = alreadyPublished(config, store, def, p);
  if (done) {
    for (const line of done) log(line);
    return;
  }
  if (!def.publishDir || !p.key || !p.manifest) return;
  const target = join(projectDirOf(config.file), def.publishDir(config));
  const outputs = store.outputsDir(p.uses, p.key);
  // Already what it would become (a no-op rerun): left as it is; otherwise emptied (but for its archive) and copied.
  if (!(existsSync(target) && sameFiles(outputs, target, [RUNS_DIR]))) {
    if (existsSync(target)) for (const name of readdirSync(target)) if (name !== RUNS_DIR) rmSync(join(target, name), { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    cpSync(outputs, target, { recursive: true, preserveTimestamps: true }); // same-files.ts: the next no-op compares by mtime
  }
  log(`  published ${relative(process.cwd(), target) || target}`);
  if (!isLaunchReport(target)) return;
  const frozen: FrozenStage[] = [];
  for (const s of run) {
    const manifest = s.id === p.id ? p.manifest : s.manifest;
    if (!s.key || !manifest) continue;
    frozen.push({
      id: s.id,
      uses: s.uses,
      key: s.key,
      outputDigest: manifest.outputDigest,
      keyInputs: manifest.keyInputs,
      observationsDir: store.observationsDir(s.uses, s.key),
      // as the store pushes the stage: the run's id is the same here and in the registry
      manifestDigest: 'sha256:' + sha256Hex(readFileSync(join(store.stageDir(s.uses, s.key), 'manifest.json'))),
    });
  }
  const filed = filePublishedRun(target, config.experiment.name, frozen, label);
  log(`  ${filed.action === 'filed' ? 'archived as' : 'already archived as'} ${relative(process.cwd(), filed.folder) || filed.folder}`);
}

/**
 * The lines publishStage would log when stage `p` is already published as it
 * would become, and archived (nothing to write); null when publishing it would
 * write something. A no-op rerun asks this without the data folder's lock.
 */
export function alreadyPublished(config: PipelineConfig, store: Store, def: StageDefinition, p: FrozenRef): string[] | null {
  if (!def.publishDir || !p.key || !p.manifest) return [];
  const target = join(projectDirOf(config.file), def.publishDir(config));
  if (!(existsSync(target) && sameFiles(store.outputsDir(p.uses, p.key), target, [RUNS_DIR]))) return null;
  const lines = [`  published ${relative(process.cwd(), target) || target}`];
  if (!isLaunchReport(target)) return lines;
  const filed = alreadyArchived(target, join(target, RUNS_DIR));
  return filed ? [...lines, `  already archived as ${relative(process.cwd(), filed.folder) || filed.folder}`] : null;
}
