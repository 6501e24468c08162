// Test images made of the busybox-static artifact with the project's own
// builders and skopeo: an OCI layout (tag `image`), an OCI archive, and
// layouts with a two-platform index or a zstd layer written into index.json.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildImageTar } from '../../harness/artifacts/build-image-tar.js';
import { buildOciLayout } from '../../harness/artifacts/oci-layout.js';
import { sha256File, sha256Hex } from '../../harness/digest/sha256.js';

export interface BusyboxLayout {
  rootTar: string;
  layout: string;
  manifestDigest: string;
}

export async function busyboxLayout(dir: string): Promise<BusyboxLayout> {
  const rootTar = join(dir, 'root.tar');
  const recipe = { id: 'b', kind: 'busybox-static' as const, busybox: '/bin/busybox', osRelease: 'ID=busybox\n', repository: 'test/b' };
  await buildImageTar(recipe, rootTar, () => {});
  const layout = join(dir, 'layout');
  const pin = await buildOciLayout(rootTar, await sha256File(rootTar), layout);
  return { rootTar, layout, manifestDigest: pin.manifestDigest };
}

export function skopeoCopy(from: string, to: string, extra: string[] = []): void {
  execFileSync('skopeo', ['--insecure-policy', 'copy', '--quiet', ...extra, from, to], { stdio: ['ignore', 'ignore', 'pipe'] });
}

function writeBlob(layout: string, bytes: Buffer | string): { digest: string; size: number } {
  const hex = sha256Hex(bytes);
  writeFileSync(join(layout, 'blobs', 'sha256', hex), bytes);
  return { digest: `sha256:${hex}`, size: Buffer.byteLength(bytes) };
}

const blobJson = (layout: string, digest: string) => JSON.parse(readFileSync(join(layout, 'blobs', 'sha256', digest.slice(7)), 'utf8'));

function addTag(layout: string, tag: string, desc: { mediaType: string; digest: string; size: number }): void {
  const index = JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8'));
  index.manifests.push({ ...desc, annotations: { 'org.opencontainers.image.ref.name': tag } });
  writeFileSync(join(layout, 'index.json'), JSON.stringify(index));
}

/** Adds tag `multi`: an index of an arm64 variant (same layer, another config) and the amd64 image. Returns the index digest. */
export function addTwoPlatformIndex(b: BusyboxLayout): { indexDigest: string; arm64Digest: string } {
  const man = blobJson(b.layout, b.manifestDigest);
  const cfg = blobJson(b.layout, man.config.digest);
  const armCfg = writeBlob(b.layout, JSON.stringify({ ...cfg, architecture: 'arm64' }));
  const arm = writeBlob(b.layout, JSON.stringify({ ...man, config: { ...man.config, ...armCfg } }));
  const type = 'application/vnd.oci.image.manifest.v1+json';
  const amdSize = readFileSync(join(b.layout, 'blobs', 'sha256', b.manifestDigest.slice(7))).length;
  const index = writeBlob(
    b.layout,
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: [
        { mediaType: type, ...arm, platform: { architecture: 'arm64', os: 'linux' } },
        { mediaType: type, digest: b.manifestDigest, size: amdSize, platform: { architecture: 'amd64', os: 'linux' } },
      ],
    }),
  );
  addTag(b.layout, 'multi', { mediaType: 'application/vnd.oci.image.index.v1+json', ...index });
  return { indexDigest: index.digest, arm64Digest: arm.digest };
}

/** Adds tag `zstd`: the busybox root as one zstd-compressed layer. */
export function addZstdImage(b: BusyboxLayout): string {
  const man = blobJson(b.layout, b.manifestDigest);
  const layer = writeBlob(b.layout, execFileSync('zstd', ['-q', '-c', b.rootTar], { maxBuffer: 1 << 28 }));
  const m = writeBlob(b.layout, JSON.stringify({ ...man, layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+zstd', ...layer }] }));
  addTag(b.layout, 'zstd', { mediaType: 'application/vnd.oci.image.manifest.v1+json', ...m });
  return m.digest;
}
