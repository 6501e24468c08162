// Effects: reads one blob from a repository, hashing it as it streams; a blob
// whose bytes do not hash to its digest is refused by name (CheckFailed).
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { CheckFailed } from '../errors.js';
import { readAll, type OciClient } from './oci-client.js';

export class BlobMismatch extends CheckFailed {
  constructor(
    readonly digest: string,
    readonly title: string,
    readonly got: string,
  ) {
    super(
      `blob ${digest} (${title}) hashes to ${got}: the registry copy is damaged; the run is refused (a push of the intact run with --repair checks every blob and says how to replace a damaged one)`,
    );
    this.name = 'BlobMismatch';
  }
}

async function openBlob(client: OciClient, digest: string, title: string) {
  const target = client.path(`blobs/${digest}`);
  const res = await client.open('GET', target);
  if (res.statusCode !== 200) {
    const body = await readAll(res);
    throw client.unexpected('GET', target, { status: res.statusCode ?? 0, headers: res.headers, body }, `cannot read blob ${digest} (${title})`);
  }
  return res;
}

/** Streams the blob into `file` (or nowhere, with null); returns its size in bytes. Throws BlobMismatch on a wrong digest. */
export async function fetchBlob(client: OciClient, digest: string, title: string, file: string | null): Promise<number> {
  const res = await openBlob(client, digest, title);
  const hash = createHash('sha256');
  const out = file ? createWriteStream(file) : null;
  let bytes = 0;
  await new Promise<void>((resolve, reject) => {
    res.on('data', (c: Buffer) => {
      hash.update(c);
      bytes += c.length;
      if (out && !out.write(c)) {
        res.pause();
        out.once('drain', () => res.resume());
      }
    });
    res.on('end', () => (out ? out.end(resolve) : resolve()));
    res.on('error', reject);
    out?.on('error', reject);
  });
  const got = 'sha256:' + hash.digest('hex');
  if (got !== digest) throw new BlobMismatch(digest, title, got);
  return bytes;
}

export async function fetchBlobBytes(client: OciClient, digest: string, title: string): Promise<Buffer> {
  const body = await readAll(await openBlob(client, digest, title));
  const got = 'sha256:' + createHash('sha256').update(body).digest('hex');
  if (got !== digest) throw new BlobMismatch(digest, title, got);
  return body;
}
