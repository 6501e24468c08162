// Pure: whether a fetched run is what it claims. The tag is the run digest of
// the config; every stage of the config has its manifest.json as a layer; each
// stage manifest (once its blob is fetched and hashed) is of that stage's kind
// and key, its files' Merkle root is the output digest, and every file it
// lists is the layer at its place with its digest and size, and no other; the
// lock names the same stages. Any finding refuses the run.
import { merkleRoot, type FileDigest } from '../digest/merkle.js';
import type { StageManifest } from '../engine/store.js';
import type { LockFile } from '../engine/lock-file.js';
import { LOCK_TITLE, runDigestOf, runTag, TITLE, type OciManifest, type RunConfig } from './run-artifact.js';

export function layerTitles(manifest: OciManifest): Map<string, { digest: string; size: number }> {
  const out = new Map<string, { digest: string; size: number }>();
  for (const l of manifest.layers) {
    const t = l.annotations?.[TITLE];
    if (t) out.set(t, { digest: l.digest, size: l.size });
  }
  return out;
}

/** Findings about the manifest and config alone (before any stage blob is read). */
export function checkRunHead(tag: string, manifest: OciManifest, config: RunConfig): string[] {
  const out: string[] = [];
  const digest = runDigestOf(config.experiment, config.stages);
  if (digest !== config.runDigest) out.push(`the run config's digest is ${config.runDigest}, its stages hash to ${digest}`);
  if (tag !== runTag(config.experiment, config.runDigest)) out.push(`tag ${tag} does not name run ${config.experiment}_${config.runDigest}`);
  const layers = layerTitles(manifest);
  for (const [id, s] of Object.entries(config.stages)) {
    const l = layers.get(`${id}/manifest.json`);
    if (!l) out.push(`stage ${id}: no manifest.json layer`);
    else if (l.digest !== s.manifest) out.push(`stage ${id}: manifest.json layer is ${l.digest}, the run config names ${s.manifest}`);
  }
  if (!layers.has(LOCK_TITLE)) out.push('no pipeline.lock layer');
  for (const t of layers.keys()) {
    const id = t.split('/')[0]!;
    if (t !== LOCK_TITLE && !config.stages[id]) out.push(`layer ${t} belongs to no stage of the run`);
  }
  return out;
}

/** One file of a stage as a layer of the run: its folder in the stage, its digest, and its layer title `<id>/<under>/<path>`. */
export interface StageFileLayer {
  under: 'outputs' | 'observations';
  file: FileDigest;
  title: string;
}

/** A stage's files as the run holds them, one layer each: its outputs, then its observations. */
export function stageFileLayers(id: string, stage: StageManifest): StageFileLayer[] {
  return [
    ...stage.files.map((file) => ({ under: 'outputs' as const, file, title: `${id}/outputs/${file.path}` })),
    ...(stage.observationFiles ?? []).map((file) => ({ under: 'observations' as const, file, title: `${id}/observations/${file.path}` })),
  ];
}

/** Findings about one stage, given its fetched (digest-checked) manifest.json. */
export function checkStage(id: string, config: RunConfig, stage: StageManifest, manifest: OciManifest): string[] {
  const want = config.stages[id]!;
  const out: string[] = [];
  if (stage.kind !== want.uses || stage.key !== want.key)
    out.push(`stage ${id}: manifest.json is of ${stage.kind}/${stage.key.slice(0, 12)}, the run names ${want.uses}/${want.key.slice(0, 12)}`);
  if (stage.outputDigest !== want.outputDigest || merkleRoot(stage.files) !== want.outputDigest)
    out.push(`stage ${id}: its files do not hash to output digest ${want.outputDigest.slice(0, 12)}`);
  if (stage.observationFiles && merkleRoot(stage.observationFiles) !== stage.observationsDigest)
    out.push(`stage ${id}: its observation files do not hash to ${String(stage.observationsDigest).slice(0, 12)}`);
  const layers = layerTitles(manifest);
  const expected = new Set<string>([`${id}/manifest.json`]);
  for (const { under, file: f, title } of stageFileLayers(id, stage)) {
    expected.add(title);
    const l = layers.get(title);
    if (!l) out.push(`stage ${id}: ${under}/${f.path} is not in the run`);
    else if (l.digest !== `sha256:${f.sha256}` || l.size !== f.bytes)
      out.push(`stage ${id}: blob ${l.digest} at ${under}/${f.path} is not the file the stage manifest names (sha256:${f.sha256})`);
  }
  for (const t of layers.keys()) if (t.startsWith(`${id}/`) && !expected.has(t)) out.push(`stage ${id}: layer ${t} is not named by its manifest`);
  return out;
}

export function checkLock(lock: LockFile, config: RunConfig): string[] {
  const out: string[] = [];
  const ids = new Set([...Object.keys(lock.stages), ...Object.keys(config.stages)]);
  for (const id of ids) {
    const l = lock.stages[id];
    const c = config.stages[id];
    if (!l || !c || l.uses !== c.uses || l.key !== c.key || l.outputDigest !== c.outputDigest)
      out.push(`pipeline.lock: stage ${id} differs from the run config`);
  }
  return out;
}
