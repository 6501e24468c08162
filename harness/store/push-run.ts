// Effects: `pipeline push REF`: the local frozen run the lock names, as one
// OCI artifact. Every blob first (HEAD, else mount, else a chunked upload the
// registry checks by digest), the config, and the manifest last, so the tag
// never names a blob the registry does not hold; a push killed at any point
// leaves no tag, and a retried push sends only what is missing. A tag that
// exists is never replaced: the same run is already there.
//
// --repair (issue 47 item 5): every blob the registry says it holds is read
// back and hashed. Distribution keeps the first copy of a digest and skips a
// re-upload while it exists, so a damaged copy cannot be replaced through the
// API; the push names each one and where its data lies in the registry's
// storage. Once the registry's operator removes that file the blob is missing,
// and the next push --repair uploads it anew.
import { faultPoint } from './fault-point.js';
import { BlobMismatch, fetchBlob } from './blob-fetch.js';
import { CheckFailed } from '../errors.js';
import { putBlob, type BlobOutcome } from './blob-upload.js';
import type { OciClient } from './oci-client.js';
import { buildRunArtifact, MEDIA_TYPES, RUN_ID_LENGTH } from './run-artifact.js';
import type { LocalRun } from './local-run.js';
import { UserError } from '../errors.js';
import { sha256Hex } from '../digest/sha256.js';

export interface PushOutcome {
  runId: string;
  tag: string;
  manifestDigest: string;
  /** repaired: the tag was there, and --repair checked every blob and sent the missing ones. */
  action: 'pushed' | 'already there' | 'repaired';
  blobs: Record<BlobOutcome, number>;
  uploadedBytes: number;
}

export async function pushRun(
  client: OciClient,
  experiment: string,
  run: LocalRun,
  opts: {
    mountFrom?: readonly string[];
    annotate?: (configDigest: string) => Record<string, string>;
    log?: (line: string) => void;
    /** Read back and hash every blob the registry already holds, and send the missing ones even when the tag exists. */
    repair?: boolean;
  } = {},
): Promise<PushOutcome> {
  if (experiment.length > 62)
    throw new UserError(
      `experiment name '${experiment}' is longer than 62 characters`,
      { key: 'experiment.name' },
      'a registry tag holds the name and a 64-digit digest in 128 characters: shorten the name',
    );
  const artifact = buildRunArtifact(experiment, run.stages, run.lockText, opts.annotate);
  const runId = artifact.config.runDigest.slice(0, RUN_ID_LENGTH);
  const blobs: Record<BlobOutcome, number> = { present: 0, mounted: 0, uploaded: 0 };
  const tagTarget = client.path(`manifests/${artifact.tag}`);
  const head = await client.send('HEAD', tagTarget, { headers: { accept: MEDIA_TYPES.manifest } });
  if (head.status === 200 && !opts.repair)
    return { runId, tag: artifact.tag, manifestDigest: String(head.headers['docker-content-digest'] ?? ''), action: 'already there', blobs, uploadedBytes: 0 };
  if (head.status !== 404 && head.status !== 200) throw client.unexpected('HEAD', tagTarget, head, `cannot tell whether run ${runId} is there`);
  let uploadedBytes = 0;
  const seen = new Set<string>();
  const damaged: BlobMismatch[] = [];
  for (const blob of artifact.blobs) {
    if (seen.has(blob.digest)) continue;
    seen.add(blob.digest);
    const outcome = await putBlob(client, blob, opts.mountFrom ?? []);
    blobs[outcome]++;
    if (outcome === 'uploaded') uploadedBytes += blob.sizeBytes;
    if (outcome === 'present' && opts.repair) {
      try {
        await fetchBlob(client, blob.digest, blob.title, null);
      } catch (e) {
        if (!(e instanceof BlobMismatch)) throw e;
        damaged.push(e);
      }
    }
  }
  if (damaged.length)
    throw new CheckFailed(
      `the registry holds a damaged copy of ${damaged.length} blob(s) of run ${runId}; Distribution keeps the first copy of a digest and skips a re-upload, so a push cannot replace it: ` +
        `remove each one's data from the registry's storage (filesystem driver: <rootdirectory>/docker/registry/v2/blobs/sha256/<first 2 hex>/<hex>/data), then push --repair again to upload it anew`,
      damaged.map((d) => `${d.digest} (${d.title}) hashes to ${d.got}`),
    );
  if (head.status === 200)
    return { runId, tag: artifact.tag, manifestDigest: String(head.headers['docker-content-digest'] ?? ''), action: 'repaired', blobs, uploadedBytes };
  faultPoint('before-manifest');
  const put = await client.send('PUT', tagTarget, { headers: { 'content-type': MEDIA_TYPES.manifest }, body: artifact.manifestBytes });
  if (put.status !== 201) throw client.unexpected('PUT', tagTarget, put, `the registry refused the manifest of run ${runId}`);
  faultPoint('after-manifest');
  const digest = 'sha256:' + sha256Hex(artifact.manifestBytes);
  return { runId, tag: artifact.tag, manifestDigest: digest, action: 'pushed', blobs, uploadedBytes };
}
