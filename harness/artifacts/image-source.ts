// Pure: an image the user brings (artifacts.images.<id> of kind registry,
// oci-archive, docker-archive or oci-layout), the skopeo reference that reads
// it, the platform it resolves to, and what of it enters the pin's key: its
// digest (or, without one, the content hash of the file), never a path, a
// host name or an mtime.
import { isAbsolute, resolve } from 'node:path';
import { referenceDigest } from '../config/image-reference.js';

export { isLoopbackHost, referenceDigest, referenceHost } from '../config/image-reference.js';

export const IMPORTED_KINDS = ['registry', 'oci-archive', 'docker-archive', 'oci-layout'] as const;
export type ImportedKind = (typeof IMPORTED_KINDS)[number];
export const BUILT_KINDS = ['mmdebstrap', 'busybox-static'] as const;

export interface ImageSource {
  id: string;
  kind: ImportedKind;
  /** registry: HOST/REPO[:TAG]@sha256:…; archives and layouts: the absolute file or folder. */
  location: string;
  /** oci-layout: the tag in index.json. */
  tag?: string;
  /** The digest the user pinned (required for registry), if any. */
  digest?: string;
  platform: Platform;
  tlsVerify: boolean;
  repository: string;
}

export interface Platform {
  os: string;
  architecture: string;
  variant?: string;
}

export function isImportedKind(kind: unknown): kind is ImportedKind {
  return (IMPORTED_KINDS as readonly unknown[]).includes(kind);
}

/** Node's process.arch as an OCI architecture name. */
export function hostPlatform(arch: string = process.arch): Platform {
  const map: Record<string, Platform> = {
    x64: { os: 'linux', architecture: 'amd64' },
    arm64: { os: 'linux', architecture: 'arm64', variant: 'v8' },
    arm: { os: 'linux', architecture: 'arm', variant: 'v7' },
    ia32: { os: 'linux', architecture: '386' },
    ppc64: { os: 'linux', architecture: 'ppc64le' },
    s390x: { os: 'linux', architecture: 's390x' },
    riscv64: { os: 'linux', architecture: 'riscv64' },
  };
  return map[arch] ?? { os: 'linux', architecture: arch };
}

export function parsePlatform(text: string | undefined): Platform {
  if (!text) return hostPlatform();
  const [os, architecture, variant] = text.split('/');
  return variant ? { os: os!, architecture: architecture!, variant } : { os: os!, architecture: architecture! };
}

export function platformText(p: Platform): string {
  return [p.os, p.architecture, p.variant].filter(Boolean).join('/');
}

/** The image sources among artifacts.images (built kinds are left to image-recipe.ts). */
export function imageSources(artifacts: Record<string, unknown>, pipelineDir: string): ImageSource[] {
  const images = (artifacts['images'] ?? {}) as Record<string, Record<string, unknown>>;
  const out: ImageSource[] = [];
  for (const [id, img] of Object.entries(images)) {
    const kind = img['kind'];
    if (!isImportedKind(kind)) continue;
    const rel = String(kind === 'registry' ? img['reference'] : kind === 'oci-layout' ? img['path'] : img['file']);
    const location = kind === 'registry' ? rel : isAbsolute(rel) ? rel : resolve(pipelineDir, rel);
    const digest = kind === 'registry' ? (referenceDigest(rel) ?? undefined) : (img['digest'] as string | undefined);
    out.push({
      id,
      kind,
      location,
      ...(kind === 'oci-layout' ? { tag: String(img['tag']) } : {}),
      ...(digest ? { digest } : {}),
      platform: parsePlatform(img['platform'] as string | undefined),
      tlsVerify: img['tls_verify'] !== false,
      repository: String(img['repository'] ?? `benchgraph/${id}`),
    });
  }
  return out;
}

/** HOST/REPO:TAG@DIGEST without its tag: skopeo reads a reference with both by its digest only. */
export function withoutTag(reference: string): string {
  const at = reference.indexOf('@');
  if (at < 0) return reference;
  const name = reference.slice(0, at);
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  return colon > slash ? name.slice(0, colon) + reference.slice(at) : reference;
}

/** skopeo's transport:reference for a source. */
export function skopeoReference(src: ImageSource): string {
  switch (src.kind) {
    case 'registry':
      return `docker://${withoutTag(src.location)}`;
    case 'oci-archive':
      return `oci-archive:${src.location}`;
    case 'docker-archive':
      return `docker-archive:${src.location}`;
    case 'oci-layout':
      return `oci:${src.location}:${src.tag}`;
  }
}

/**
 * What of an imported image enters the pin's key: the pinned digest, or else
 * the content hash of the file the caller computed; the platform and the
 * mirror repository name. Not the path, the registry host or an mtime.
 */
export function sourceKeyOf(src: ImageSource, contentSha256: () => string): Record<string, unknown> {
  return {
    kind: src.kind,
    ...(src.digest ? { digest: src.digest } : { content: contentSha256() }),
    ...(src.kind === 'oci-layout' && !src.digest ? { tag: src.tag } : {}),
    platform: platformText(src.platform),
    repository: src.repository,
  };
}
