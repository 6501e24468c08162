// Pure: did a cold launch retrieve every blob of its image (full-pull), or
// only part of it, on demand (lazy)? The byte-counting proxy counts the
// bodies of registry blob responses (layers and config) as content bytes; a
// complete pull of a pinned image receives exactly the sum of its layer sizes
// and its config size. full-pull: fewer bytes, some blob came from a local
// cache (the before_cold hook did not remove it); more, a blob was fetched
// twice or another image was pulled. lazy: no bytes, the launch read from a
// cache; as many as the full pull or more, it fell back to reading the whole
// image. Either way the sample fails, with the bytes in its reason.

export interface PinnedBlobs {
  layers: { digest: string; size: number }[];
  configSize: number;
}

export interface ColdCheckResult {
  ok: boolean;
  reason: string | null;
}

/** Sum of layer and config sizes, in bytes. */
export function fullPullBytes(blobs: PinnedBlobs): number {
  return blobs.layers.reduce((sum, l) => sum + l.size, blobs.configSize);
}

/** Reads the blob sizes from an image's merged pin/preparation fields; null if they are absent. */
export function pinnedBlobsOf(image: Record<string, unknown>): PinnedBlobs | null {
  const layers = image['layers'];
  const configSize = image['configSize'] ?? image['config_size'];
  if (!Array.isArray(layers) || typeof configSize !== 'number') return null;
  const parsed: { digest: string; size: number }[] = [];
  for (const l of layers as unknown[]) {
    const rec = l as { digest?: unknown; size?: unknown };
    if (typeof rec?.digest !== 'string' || typeof rec.size !== 'number') return null;
    parsed.push({ digest: rec.digest, size: rec.size });
  }
  return { layers: parsed, configSize };
}

/** The `full-pull` cold check: content bytes must equal the pinned blob sizes. */
export function fullPullCheck(image: Record<string, unknown>, contentBytes: number | null): ColdCheckResult {
  const blobs = pinnedBlobsOf(image);
  if (!blobs) return { ok: false, reason: 'full-pull check: the image pin has no layer and config sizes' };
  const expectedBytes = fullPullBytes(blobs);
  if (contentBytes === null) return { ok: false, reason: `full-pull check: no content bytes counted (expected ${expectedBytes})` };
  if (contentBytes === expectedBytes) return { ok: true, reason: null };
  const what = contentBytes < expectedBytes ? 'incomplete pull: some blob was not retrieved' : 'more than one complete pull';
  return { ok: false, reason: `${what} (content ${contentBytes} bytes, layers + config ${expectedBytes} bytes)` };
}

/** The `lazy` cold check: some content bytes, and fewer than a full pull of the pinned image. */
export function lazyReadCheck(image: Record<string, unknown>, contentBytes: number | null): ColdCheckResult {
  const blobs = pinnedBlobsOf(image);
  if (!blobs) return { ok: false, reason: 'lazy check: the image pin has no layer and config sizes' };
  const fullBytes = fullPullBytes(blobs);
  if (contentBytes === null) return { ok: false, reason: 'lazy check: no content bytes counted' };
  if (contentBytes === 0) return { ok: false, reason: 'not lazy: the cold launch fetched nothing from the registry (it read from a cache)' };
  if (contentBytes >= fullBytes)
    return { ok: false, reason: `not lazy: the cold launch fetched ${contentBytes} bytes, as much as a full pull of the image (${fullBytes} bytes)` };
  return { ok: true, reason: null };
}
