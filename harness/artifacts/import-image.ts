// Effects: brings a user's image (registry, oci-archive, docker-archive,
// oci-layout) into a folder of the artifact cache: reads the source's raw
// manifest, resolves a multi-platform index to the platform's manifest,
// refuses a digest other than the pinned one before copying anything, copies
// the image with skopeo into an OCI layout (digests kept unless skopeo must
// convert a Docker manifest to OCI), refuses layers it cannot unpack (zstd),
// and builds the root file system tar and the erofs image from it.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sha256File, sha256Hex } from '../digest/sha256.js';
import { CheckFailed, UserError, type ErrorPlace } from '../errors.js';
import { buildErofsImage } from './erofs-image.js';
import { platformText, skopeoReference, type ImageSource } from './image-source.js';
import { isIndex, selectPlatform, taggedEntry, unsupportedLayer, type ManifestDoc } from './oci-manifest.js';
import { copyToLayout, inspectRaw } from './skopeo.js';
import { unpackRootfsTar } from './unpack-rootfs.js';
import type { ImageSourcePin, OciImagePin } from '../contract/exchange-files.js';

export interface ImportedImage extends OciImagePin {
  tarSha256: string;
  tarBytes: number;
  erofsSha256: string;
  erofsBytes: number;
  source: ImageSourcePin;
}

const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

function blob(layoutDir: string, digest: string): string {
  return join(layoutDir, 'blobs', 'sha256', digest.replace(/^sha256:/, ''));
}

/** What the source holds, resolved to the platform, checked against the pinned digest (nothing is copied yet). */
export async function resolveSource(src: ImageSource, place: ErrorPlace, signal?: AbortSignal): Promise<Omit<ImageSourcePin, 'pinnedDigest'>> {
  let raw: string;
  try {
    raw = await inspectRaw(src, signal);
  } catch (e) {
    const hint =
      src.kind === 'registry' ? `check the reference with: skopeo inspect ${skopeoReference(src)}` : `check it with: skopeo inspect ${skopeoReference(src)}`;
    throw new UserError(`cannot read image ${src.id} from ${skopeoReference(src)}: ${(e as Error).message.split(': ').slice(-1)[0]}`, place, hint);
  }
  const sourceDigest = `sha256:${sha256Hex(raw)}`;
  const doc = JSON.parse(raw) as ManifestDoc;
  let platformManifestDigest = sourceDigest;
  let manifestType = doc.mediaType ?? OCI_MANIFEST;
  const out: Omit<ImageSourcePin, 'pinnedDigest'> = {
    kind: src.kind,
    sourceDigest,
    sourceMediaType: doc.mediaType ?? '',
    platformManifestDigest,
    platform: platformText(src.platform),
    ...(doc.config?.digest ? { sourceConfigDigest: doc.config.digest } : {}),
  };
  if (isIndex(doc)) {
    const sel = selectPlatform(doc, src.platform);
    if ('available' in sel)
      throw new UserError(
        `image ${src.id}: the index ${sourceDigest} has no manifest for ${platformText(src.platform)}`,
        { ...place, key: place.key?.replace(/\.[a-z_]+$/, '.platform') },
        `set platform: to one of ${sel.available.join(', ') || '(none listed)'}`,
      );
    platformManifestDigest = sel.found.digest;
    manifestType = sel.found.mediaType ?? OCI_MANIFEST;
    out.indexDigest = sourceDigest;
    out.platformManifestDigest = platformManifestDigest;
  }
  out.sourceMediaType = manifestType;
  if (src.digest) {
    const accepted = [sourceDigest, platformManifestDigest];
    if (src.kind === 'docker-archive' && doc.config?.digest) accepted.push(doc.config.digest);
    if (!accepted.includes(src.digest))
      throw new UserError(
        `image ${src.id}: digest mismatch: the pipeline pins ${src.digest}, ${skopeoReference(src)} has ${sourceDigest}${
          out.indexDigest ? ` (index; ${platformText(src.platform)} manifest ${platformManifestDigest})` : ''
        }`,
        place,
        'pin the digest of the image you mean (skopeo inspect --raw REF | sha256sum), or point to the image that has it',
      );
  }
  return out;
}

/** Copies, checks and unpacks the image into `dir` (oci/, image.tar, image.erofs). */
export async function importImage(src: ImageSource, place: ErrorPlace, dir: string, log: (l: string) => void, signal?: AbortSignal): Promise<ImportedImage> {
  const found = await resolveSource(src, place, signal);
  const layoutDir = join(dir, 'oci');
  const preserve = found.sourceMediaType === OCI_MANIFEST;
  const t0 = Date.now();
  await copyToLayout(src, layoutDir, preserve, signal);
  const index = JSON.parse(readFileSync(join(layoutDir, 'index.json'), 'utf8')) as ManifestDoc;
  const entry = taggedEntry(index, 'image');
  if (!entry) throw new CheckFailed(`skopeo left no image in ${layoutDir}`);
  if (preserve && entry.digest !== found.platformManifestDigest)
    throw new CheckFailed(`image ${src.id}: copied manifest ${entry.digest} is not the source's ${found.platformManifestDigest}`);
  const manifest = JSON.parse(readFileSync(blob(layoutDir, entry.digest), 'utf8')) as ManifestDoc;
  const bad = unsupportedLayer(manifest);
  if (bad)
    throw new UserError(
      `image ${src.id}: layer ${bad.digest} is ${bad.mediaType}; benchgraph unpacks gzip and uncompressed layers only (umoci 0.4 reads no zstd)`,
      place,
      `recompress it to gzip: skopeo copy --dest-compress-format gzip ${skopeoReference(src)} oci-archive:FILE, then pin that file and its new digest`,
    );
  const config = manifest.config!;
  const diffIds = (JSON.parse(readFileSync(blob(layoutDir, config.digest), 'utf8')) as { rootfs?: { diff_ids?: string[] } }).rootfs?.diff_ids ?? [];
  log(`pin: ${src.id}: copied ${skopeoReference(src)} (${(manifest.layers ?? []).length} layers) in ${((Date.now() - t0) / 1000).toFixed(1)} s; unpacking`);
  const tarFile = join(dir, 'image.tar');
  await unpackRootfsTar(layoutDir, tarFile, signal);
  const erofsFile = join(dir, 'image.erofs');
  await buildErofsImage(tarFile, erofsFile, signal);
  return {
    manifestDigest: entry.digest,
    manifestSize: entry.size,
    configDigest: config.digest,
    configSize: config.size,
    layers: (manifest.layers ?? []).map((l, i) => ({ digest: l.digest, size: l.size, diffId: diffIds[i] ?? '', mediaType: l.mediaType ?? '' })),
    tarSha256: await sha256File(tarFile),
    tarBytes: statSync(tarFile).size,
    erofsSha256: await sha256File(erofsFile),
    erofsBytes: statSync(erofsFile).size,
    source: { ...found, ...(src.digest ? { pinnedDigest: src.digest } : {}) },
  };
}
