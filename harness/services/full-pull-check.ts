// Pure: did a cold launch retrieve every blob of its image? The byte-counting
// proxy counts the bodies of registry blob responses (layers and config) as
// content bytes; a complete pull of a pinned image receives exactly the sum of
// its layer sizes and its config size. Fewer bytes: some blob came from a
// local cache (the before_cold hook did not remove it); more: a blob was
// fetched twice or another image was pulled. Either way the sample fails.

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
