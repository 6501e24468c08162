// Pure: reading OCI and Docker manifests and indexes: which manifest of an
// index is the platform's, which layers a manifest has and whether this
// project can unpack them (gzip and uncompressed, not zstd).
import { platformText, type Platform } from './image-source.js';

export interface Descriptor {
  mediaType?: string;
  digest: string;
  size: number;
  platform?: { os?: string; architecture?: string; variant?: string };
  annotations?: Record<string, string>;
}

export interface ManifestDoc {
  mediaType?: string;
  schemaVersion?: number;
  config?: Descriptor;
  layers?: Descriptor[];
  manifests?: Descriptor[];
}

const INDEX_TYPES = new Set(['application/vnd.oci.image.index.v1+json', 'application/vnd.docker.distribution.manifest.list.v2+json']);

export function isIndex(doc: ManifestDoc): boolean {
  return (doc.mediaType !== undefined && INDEX_TYPES.has(doc.mediaType)) || (doc.mediaType === undefined && Array.isArray(doc.manifests) && !doc.layers);
}

/** The manifest of an index for a platform (a variant is matched only when both name one), or the platforms it has. */
export function selectPlatform(index: ManifestDoc, want: Platform): { found: Descriptor } | { available: string[] } {
  const entries = index.manifests ?? [];
  const match = (d: Descriptor, withVariant: boolean): boolean =>
    d.platform?.os === want.os &&
    d.platform?.architecture === want.architecture &&
    (!withVariant || !want.variant || !d.platform?.variant || d.platform.variant === want.variant);
  const found = entries.find((d) => match(d, true)) ?? entries.find((d) => match(d, false));
  if (found) return { found };
  return {
    available: entries.map((d) => platformText({ os: d.platform?.os ?? '?', architecture: d.platform?.architecture ?? '?', variant: d.platform?.variant })),
  };
}

/** A layer this project cannot unpack (umoci 0.4 reads gzip and plain tar layers), or null. */
export function unsupportedLayer(manifest: ManifestDoc): Descriptor | null {
  return (manifest.layers ?? []).find((l) => /zstd|encrypted/.test(l.mediaType ?? '')) ?? null;
}

/** The manifest digest of the layout entry tagged `tag` (org.opencontainers.image.ref.name) in an index.json. */
export function taggedEntry(indexJson: ManifestDoc, tag: string): Descriptor | null {
  return (indexJson.manifests ?? []).find((d) => d.annotations?.['org.opencontainers.image.ref.name'] === tag) ?? null;
}
