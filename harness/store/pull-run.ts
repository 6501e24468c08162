// Effects: `pipeline pull REF@RUN`: a remote run becomes a local frozen run.
// The manifest, the run config and every stage manifest are checked first
// (run-check.ts); every blob is fetched into a temporary folder of the data
// folder and hashed as it arrives; only when all of the run is there and
// right are its stage folders renamed into the store and the lock written.
// A refused run leaves nothing local changed. A stage frozen here with other
// outputs under the same key (a replicate) is kept unless --replace.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CheckFailed, UserError } from '../errors.js';
import { sha256Hex } from '../digest/sha256.js';
import { readLock, writeLock, type LockEntry, type LockFile } from '../engine/lock-file.js';
import { Store, type StageManifest } from '../engine/store.js';
import { fetchBlob, fetchBlobBytes } from './blob-fetch.js';
import type { OciClient } from './oci-client.js';
import { fetchManifest, fetchRunConfig, type RemoteRun } from './run-index.js';
import { LOCK_TITLE, RUN_ID_LENGTH, type OciManifest, type RunConfig } from './run-artifact.js';
import { checkLock, checkRunHead, checkStage, layerTitles, stageFileLayers } from './run-check.js';

export interface OpenedRun {
  remote: RemoteRun;
  manifest: OciManifest;
  manifestDigest: string;
  config: RunConfig;
}

/** The run's manifest and config, checked against its tag; a CheckFailed lists what is wrong. */
export async function openRun(client: OciClient, remote: RemoteRun): Promise<OpenedRun> {
  const { manifest, digest } = await fetchManifest(client, remote.tag);
  const config = await fetchRunConfig(client, manifest);
  const findings = checkRunHead(remote.tag, manifest, config);
  if (findings.length) throw new CheckFailed(`run ${remote.runDigest.slice(0, RUN_ID_LENGTH)} is refused: it is not what its tag says`, findings);
  return { remote, manifest, manifestDigest: digest, config };
}

/** Stage manifests and the lock of a run, each blob's digest checked, then the run checked as a whole. */
export async function readRunManifests(
  client: OciClient,
  run: OpenedRun,
): Promise<{ stages: Map<string, { bytes: Buffer; manifest: StageManifest }>; lock: LockFile }> {
  const layers = layerTitles(run.manifest);
  const stages = new Map<string, { bytes: Buffer; manifest: StageManifest }>();
  const findings: string[] = [];
  for (const [id, s] of Object.entries(run.config.stages)) {
    const bytes = await fetchBlobBytes(client, s.manifest, `${id}/manifest.json`);
    const manifest = JSON.parse(bytes.toString('utf8')) as StageManifest;
    stages.set(id, { bytes, manifest });
    findings.push(...checkStage(id, run.config, manifest, run.manifest));
  }
  const lockLayer = layers.get(LOCK_TITLE)!;
  const lock = JSON.parse((await fetchBlobBytes(client, lockLayer.digest, LOCK_TITLE)).toString('utf8')) as LockFile;
  findings.push(...checkLock(lock, run.config));
  if (findings.length)
    throw new CheckFailed(`run ${run.config.runDigest.slice(0, RUN_ID_LENGTH)} is refused: its lock and manifests name blobs that do not match`, findings);
  return { stages, lock };
}

export interface PullOptions {
  pipelineFile: string;
  dataDir: string;
  /** Stage ids of the local pipeline: the lock keeps only these. */
  stageIds: () => readonly string[];
  replace: boolean;
  /** Publishes the stages that have a publish folder, once they are in the store. */
  publish?: (run: RunConfig) => Promise<void>;
  log?: (line: string) => void;
}

export interface PullOutcome {
  runId: string;
  tag: string;
  action: 'already present' | 'pulled';
  stagesFetched: number;
  fetchedBytes: number;
}

function localManifestDigest(store: Store, uses: string, key: string): string | null {
  const file = join(store.stageDir(uses, key), 'manifest.json');
  return existsSync(file) ? 'sha256:' + sha256Hex(readFileSync(file)) : null;
}

/** True when every stage of the run is frozen here as pushed and the lock names exactly them. */
export function isPresent(run: RunConfig, pipelineFile: string, dataDir: string): boolean {
  const store = new Store(dataDir);
  const lock = readLock(pipelineFile, dataDir);
  return Object.entries(run.stages).every(([id, s]) => {
    const l = lock?.stages[id];
    return l && l.key === s.key && l.outputDigest === s.outputDigest && l.uses === s.uses && localManifestDigest(store, s.uses, s.key) === s.manifest;
  });
}

export async function pullRun(client: OciClient, run: OpenedRun, opts: PullOptions): Promise<PullOutcome> {
  const runId = run.config.runDigest.slice(0, RUN_ID_LENGTH);
  const base = { runId, tag: run.remote.tag };
  if (isPresent(run.config, opts.pipelineFile, opts.dataDir)) return { ...base, action: 'already present', stagesFetched: 0, fetchedBytes: 0 };
  const { stages, lock: pushedLock } = await readRunManifests(client, run);
  const store = new Store(opts.dataDir);
  const wanted: string[] = [];
  for (const [id, s] of Object.entries(run.config.stages).sort()) {
    const here = localManifestDigest(store, s.uses, s.key);
    if (here === s.manifest) continue;
    if (here !== null && !opts.replace) {
      throw new UserError(
        `stage '${id}' is frozen here with other outputs under the same key ${s.key.slice(0, 12)} (a replicate)`,
        { file: store.stageDir(s.uses, s.key) },
        'push it first (pipeline push REF) so it is kept as a sibling, then pull with --replace',
      );
    }
    wanted.push(id);
  }
  const temp = tempFolder(opts.dataDir);
  let fetchedBytes = 0;
  try {
    const layers = layerTitles(run.manifest);
    for (const id of wanted) {
      const dir = join(temp, id);
      mkdirSync(join(dir, 'outputs'), { recursive: true });
      mkdirSync(join(dir, 'observations'), { recursive: true });
      writeFileSync(join(dir, 'manifest.json'), stages.get(id)!.bytes);
      for (const { under, file: f, title } of stageFileLayers(id, stages.get(id)!.manifest)) {
        const file = join(dir, under, f.path);
        mkdirSync(dirname(file), { recursive: true });
        fetchedBytes += await fetchBlob(client, layers.get(title)!.digest, title, file);
      }
    }
    // Everything is here and right: into the store, one stage folder per rename.
    for (const id of wanted) {
      const s = run.config.stages[id]!;
      const target = store.stageDir(s.uses, s.key);
      mkdirSync(dirname(target), { recursive: true });
      if (existsSync(target)) {
        const aside = `${temp}-replaced-${id}`;
        renameSync(target, aside);
        renameSync(join(temp, id), target);
        rmSync(aside, { recursive: true, force: true });
      } else renameSync(join(temp, id), target);
      opts.log?.(`  ${id}: ${s.uses} ${s.key.slice(0, 12)} → ${s.outputDigest.slice(0, 12)}`);
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  const entries: Record<string, LockEntry> = {};
  for (const [id, s] of Object.entries(run.config.stages)) entries[id] = { uses: s.uses, key: s.key, outputDigest: s.outputDigest };
  // the data folder's record always; the lock beside the pipeline file and the report only when publishing
  writeLock(opts.pipelineFile, entries, [...new Set([...opts.stageIds(), ...Object.keys(entries)])], {
    dataDir: opts.dataDir,
    beside: opts.publish !== undefined,
    sets: Array.isArray(pushedLock.set) ? pushedLock.set.filter((x): x is string => typeof x === 'string') : [],
  });
  await opts.publish?.(run.config);
  return { ...base, action: 'pulled', stagesFetched: wanted.length, fetchedBytes };
}

function tempFolder(dataDir: string): string {
  const base = join(dataDir, 'tmp');
  mkdirSync(base, { recursive: true });
  for (let n = 0; ; n++) {
    const dir = join(base, `pull-${process.pid}-${n}`);
    if (!existsSync(dir)) {
      mkdirSync(dir);
      return dir;
    }
  }
}
