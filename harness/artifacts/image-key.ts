// What of artifacts.images enters a stage key (pin, prepare, verify): an
// image the user brings by its pinned digest, or without one by the content
// hash of its archive (or its layout's index.json), never by the path or the
// registry host it is read from; built images as written.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../digest/sha256.js';
import { imageSources, sourceKeyOf, type ImageSource } from './image-source.js';

const contentMemo = new Map<string, string>();

/** sha256 of an archive file, or of an OCI layout's index.json (its blobs are named by their digests); 'missing' when absent. */
export function sourceContentSha256(src: ImageSource): string {
  const file = src.kind === 'oci-layout' ? join(src.location, 'index.json') : src.location;
  if (!existsSync(file)) return 'missing';
  const st = statSync(file);
  const memo = `${file}\0${st.size}\0${st.mtimeMs}`;
  if (!contentMemo.has(memo)) contentMemo.set(memo, sha256Hex(readFileSync(file)));
  return contentMemo.get(memo)!;
}

/** The images section as it enters the key: a user's image by its digest or content hash, not where it is read from. */
export function imageKeyConfig(slice: Record<string, unknown>, pipelineDir: string): Record<string, unknown> {
  const artifacts = (slice['artifacts'] ?? {}) as Record<string, unknown>;
  const sources = imageSources(artifacts, pipelineDir);
  if (!sources.length) return slice; // built images only: the slice as read
  const images = { ...((artifacts['images'] ?? {}) as Record<string, unknown>) };
  for (const src of sources) images[src.id] = sourceKeyOf(src, () => sourceContentSha256(src));
  return { ...slice, artifacts: { ...artifacts, images } };
}
