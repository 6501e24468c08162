// Pure: a frozen run as one OCI artifact. The config blob (the run record)
// names every stage by kind, key, output digest and the digest of its
// manifest.json; the layers are the stage manifests, every output and
// observation file (content-addressed: a file's sha256 is its blob digest) and
// the lock, each titled by its place. The tag is `<experiment>_<run digest>`,
// the run digest a hash of the experiment and the stages, so a replicate (same
// sample key, other samples) has its own tag and never replaces another run.
import { sha256Hex } from '../digest/sha256.js';
import { runDigestOf, RUN_ID_LENGTH, type RunStageDigests } from '../digest/run-digest.js';

export const MEDIA_TYPES = {
  manifest: 'application/vnd.oci.image.manifest.v1+json',
  run: 'application/vnd.benchgraph.run.v1+json',
  stageManifest: 'application/vnd.benchgraph.stage-manifest.v1+json',
  lock: 'application/vnd.benchgraph.lock.v1+json',
  samples: 'application/vnd.benchgraph.samples.v1.duckdb',
  table: 'application/vnd.benchgraph.table.v1+csv',
  json: 'application/vnd.benchgraph.file.v1+json',
  file: 'application/vnd.benchgraph.file.v1',
} as const;

export const TITLE = 'org.opencontainers.image.title';
export const RUN_CONFIG_FORMAT = 'benchgraph-store-run/1';
export const ANNOTATIONS = {
  experiment: 'dev.benchgraph.experiment',
  runDigest: 'dev.benchgraph.run-digest',
  sampleKey: 'dev.benchgraph.sample-key',
  created: 'org.opencontainers.image.created',
  signer: 'dev.benchgraph.signer',
  signature: 'dev.benchgraph.signature',
} as const;

export type RunStageRecord = RunStageDigests;

export interface RunConfig {
  format: typeof RUN_CONFIG_FORMAT;
  experiment: string;
  runDigest: string;
  /** The end of the run's last stage. */
  time: string;
  stages: Record<string, RunStageRecord>;
}

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
}

export interface OciManifest {
  schemaVersion: 2;
  mediaType: typeof MEDIA_TYPES.manifest;
  config: Descriptor;
  layers: Descriptor[];
  annotations?: Record<string, string>;
}

/** One file of the run: where it goes in a stage folder (`<id>/outputs/x.csv`), and its bytes. */
export interface RunFile {
  title: string;
  digest: string;
  sizeBytes: number;
  file?: string;
  bytes?: Buffer;
}

export interface StageFiles {
  id: string;
  uses: string;
  key: string;
  outputDigest: string;
  endedAt: string;
  manifestBytes: Buffer;
  /** outputs/ and observations/ files, titled relative to the stage folder */
  files: RunFile[];
}

export const LOCK_TITLE = 'pipeline.lock';

export { runDigestOf, RUN_ID_LENGTH };

export function runTag(experiment: string, runDigest: string): string {
  return `${experiment}_${runDigest}`;
}

export function parseRunTag(tag: string): { experiment: string; runDigest: string } | null {
  const m = /^(.+)_([0-9a-f]{64})$/.exec(tag);
  return m ? { experiment: m[1]!, runDigest: m[2]! } : null;
}

export function mediaTypeOf(title: string): string {
  if (title.endsWith('/manifest.json') && title.split('/').length === 2) return MEDIA_TYPES.stageManifest;
  if (title === LOCK_TITLE) return MEDIA_TYPES.lock;
  if (title.endsWith('.duckdb')) return MEDIA_TYPES.samples;
  if (title.endsWith('.csv')) return MEDIA_TYPES.table;
  if (title.endsWith('.json')) return MEDIA_TYPES.json;
  return MEDIA_TYPES.file;
}

const digestOf = (b: Buffer): string => 'sha256:' + sha256Hex(b);

export interface RunArtifact {
  tag: string;
  config: RunConfig;
  configBytes: Buffer;
  manifest: OciManifest;
  manifestBytes: Buffer;
  manifestDigest: string;
  /** Every layer blob, the config last. */
  blobs: RunFile[];
}

export function buildRunArtifact(
  experiment: string,
  stages: readonly StageFiles[],
  lockText: string,
  annotate: (configDigest: string) => Record<string, string> = () => ({}),
): RunArtifact {
  const sorted = [...stages].sort((a, b) => a.id.localeCompare(b.id));
  const records: Record<string, RunStageRecord> = {};
  const layers: RunFile[] = [];
  for (const s of sorted) {
    const manifest = digestOf(s.manifestBytes);
    records[s.id] = { uses: s.uses, key: s.key, outputDigest: s.outputDigest, manifest };
    layers.push({ title: `${s.id}/manifest.json`, digest: manifest, sizeBytes: s.manifestBytes.length, bytes: s.manifestBytes });
    for (const f of [...s.files].sort((a, b) => a.title.localeCompare(b.title))) layers.push({ ...f, title: `${s.id}/${f.title}` });
  }
  const lockBytes = Buffer.from(lockText);
  layers.push({ title: LOCK_TITLE, digest: digestOf(lockBytes), sizeBytes: lockBytes.length, bytes: lockBytes });
  const runDigest = runDigestOf(experiment, records);
  const time =
    sorted
      .map((s) => s.endedAt)
      .sort()
      .at(-1) ?? '';
  const config: RunConfig = { format: RUN_CONFIG_FORMAT, experiment, runDigest, time, stages: records };
  const configBytes = Buffer.from(JSON.stringify(config, null, 1) + '\n');
  const sampleKey = sorted.find((s) => s.uses === 'sample')?.key;
  const manifest: OciManifest = {
    schemaVersion: 2,
    mediaType: MEDIA_TYPES.manifest,
    config: { mediaType: MEDIA_TYPES.run, digest: digestOf(configBytes), size: configBytes.length },
    layers: layers.map((l) => ({ mediaType: mediaTypeOf(l.title), digest: l.digest, size: l.sizeBytes, annotations: { [TITLE]: l.title } })),
    annotations: {
      [ANNOTATIONS.experiment]: experiment,
      [ANNOTATIONS.runDigest]: runDigest,
      ...(sampleKey ? { [ANNOTATIONS.sampleKey]: sampleKey } : {}),
      ...(time ? { [ANNOTATIONS.created]: time } : {}),
      ...annotate(digestOf(configBytes)),
    },
  };
  const manifestBytes = Buffer.from(JSON.stringify(manifest));
  return {
    tag: runTag(experiment, runDigest),
    config,
    configBytes,
    manifest,
    manifestBytes,
    manifestDigest: digestOf(manifestBytes),
    blobs: [...layers, { title: '(run config)', digest: manifest.config.digest, sizeBytes: configBytes.length, bytes: configBytes }],
  };
}
