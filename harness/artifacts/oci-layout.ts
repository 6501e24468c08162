// Effects: turns a root file system tar into a single-layer OCI image layout
// (gzip layer, config, manifest, index.json) deterministically: the same tar
// and Node's zlib give the same digests, so pins are known before any push.
import { createReadStream, createWriteStream, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createGzip, constants } from 'node:zlib';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { sha256Hex } from '../digest/sha256.js';

import type { OciImagePin } from '../contract/exchange-files.js';
export type { OciImagePin };

/** Pure: the image config of a single-layer image whose uncompressed layer has digest diffId. */
export function imageConfigJson(diffId: string): string {
  return JSON.stringify({
    created: '1970-01-01T00:00:00Z',
    architecture: 'amd64',
    os: 'linux',
    config: { Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'], Cmd: ['/bin/sh'] },
    rootfs: { type: 'layers', diff_ids: [diffId] },
    history: [{ created: '1970-01-01T00:00:00Z', created_by: 'benchgraph pin' }],
  });
}

/** Pure: the OCI manifest. */
export function manifestJson(config: { digest: string; size: number }, layers: { digest: string; size: number }[]): string {
  return JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: config.digest, size: config.size },
    layers: layers.map((l) => ({ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: l.digest, size: l.size })),
  });
}

function blobPath(layoutDir: string, digest: string): string {
  return join(layoutDir, 'blobs', 'sha256', digest.slice('sha256:'.length));
}

function writeBlob(layoutDir: string, text: string): { digest: string; size: number } {
  const digest = `sha256:${sha256Hex(text)}`;
  writeFileSync(blobPath(layoutDir, digest), text);
  return { digest, size: Buffer.byteLength(text) };
}

export async function buildOciLayout(tarFile: string, tarSha256: string, layoutDir: string): Promise<OciImagePin> {
  mkdirSync(join(layoutDir, 'blobs', 'sha256'), { recursive: true });
  const tmp = join(layoutDir, 'blobs', 'layer.tmp');
  const hash = createHash('sha256');
  const tap = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      cb(null, chunk);
    },
  });
  // Level 6 (gzip's default) and no file name or time in the header: deterministic.
  await pipeline(createReadStream(tarFile), createGzip({ level: constants.Z_DEFAULT_COMPRESSION }), tap, createWriteStream(tmp));
  const layerDigest = `sha256:${hash.digest('hex')}`;
  const layerSize = statSync(tmp).size;
  renameSync(tmp, blobPath(layoutDir, layerDigest));
  const diffId = `sha256:${tarSha256}`;
  const config = writeBlob(layoutDir, imageConfigJson(diffId));
  const manifest = writeBlob(layoutDir, manifestJson(config, [{ digest: layerDigest, size: layerSize }]));
  writeFileSync(join(layoutDir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  writeFileSync(
    join(layoutDir, 'index.json'),
    JSON.stringify({
      schemaVersion: 2,
      manifests: [
        {
          mediaType: 'application/vnd.oci.image.manifest.v1+json',
          digest: manifest.digest,
          size: manifest.size,
          annotations: { 'org.opencontainers.image.ref.name': 'image' },
        },
      ],
    }),
  );
  return {
    manifestDigest: manifest.digest,
    manifestSize: manifest.size,
    configDigest: config.digest,
    configSize: config.size,
    layers: [{ digest: layerDigest, size: layerSize, diffId }],
  };
}
