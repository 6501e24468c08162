// Effects: puts one content-addressed blob into a repository. HEAD first (a
// blob already there is not sent again); then a mount from another
// repository of the same registry when one is named; else a chunked upload:
// POST an upload, PATCH each chunk at the Location the registry answered, PUT
// with the digest, which the registry checks against what it received.
import { open } from 'node:fs/promises';
import { faultPoint } from './fault-point.js';
import type { OciClient } from './oci-client.js';

export interface BlobSource {
  digest: string;
  sizeBytes: number;
  /** The file holding the blob's bytes, or the bytes themselves. */
  file?: string;
  bytes?: Buffer;
}

export type BlobOutcome = 'present' | 'mounted' | 'uploaded';

export const DEFAULT_CHUNK_BYTES = 8 * 1024 * 1024;

export function chunkBytes(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env['BENCHGRAPH_STORE_CHUNK_BYTES']);
  return Number.isInteger(v) && v > 0 ? v : DEFAULT_CHUNK_BYTES;
}

export async function hasBlob(client: OciClient, digest: string): Promise<boolean> {
  const target = client.path(`blobs/${digest}`);
  const a = await client.send('HEAD', target);
  if (a.status === 200) return true;
  if (a.status === 404) return false;
  throw client.unexpected('HEAD', target, a, `cannot tell whether blob ${digest} is there`);
}

export async function putBlob(client: OciClient, blob: BlobSource, mountFrom: readonly string[] = [], chunk = chunkBytes()): Promise<BlobOutcome> {
  faultPoint('blob-head');
  if (await hasBlob(client, blob.digest)) return 'present';
  let location: string | null = null;
  for (const from of mountFrom) {
    faultPoint('blob-mount');
    const target = client.path(`blobs/uploads/?mount=${encodeURIComponent(blob.digest)}&from=${encodeURIComponent(from)}`);
    const a = await client.send('POST', target);
    if (a.status === 201) return 'mounted';
    if (a.status !== 202) throw client.unexpected('POST', target, a, `cannot mount blob ${blob.digest} from ${from}`);
    location = String(a.headers.location); // the registry started a plain upload instead
    break;
  }
  if (location === null) {
    faultPoint('upload-start');
    const target = client.path('blobs/uploads/');
    const a = await client.send('POST', target);
    if (a.status !== 202 || !a.headers.location) throw client.unexpected('POST', target, a, `cannot start the upload of blob ${blob.digest}`);
    location = String(a.headers.location);
  }
  const file = blob.file ? await open(blob.file, 'r') : null;
  try {
    for (let offset = 0; offset < blob.sizeBytes; offset += chunk) {
      const n = Math.min(chunk, blob.sizeBytes - offset);
      if (offset > 0) faultPoint('mid-blob');
      let bytes: Buffer;
      if (file) {
        bytes = Buffer.alloc(n);
        const { bytesRead } = await file.read(bytes, 0, n, offset);
        if (bytesRead !== n) throw new Error(`${blob.file} is shorter than its recorded ${blob.sizeBytes} bytes`);
      } else bytes = blob.bytes!.subarray(offset, offset + n);
      const a = await client.send('PATCH', location, {
        headers: { 'content-type': 'application/octet-stream', 'content-range': `${offset}-${offset + n - 1}` },
        body: bytes,
      });
      if (a.status !== 202 || !a.headers.location) throw client.unexpected('PATCH', location, a, `upload of blob ${blob.digest} broke at byte ${offset}`);
      location = String(a.headers.location);
    }
  } finally {
    await file?.close();
  }
  faultPoint('blob-commit');
  const done = new URL(location, client.base);
  done.searchParams.set('digest', blob.digest);
  const a = await client.send('PUT', done.href);
  if (a.status !== 201) throw client.unexpected('PUT', done.pathname, a, `the registry refused blob ${blob.digest}`);
  faultPoint('between-blobs');
  return 'uploaded';
}
