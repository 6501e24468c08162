// Effects: pushes a pinned OCI layout into a registry on loopback with skopeo,
// keeping its digests, in a private mount namespace whose /var/lib is a tmpfs
// (skopeo's blob-info cache is neither read nor left on the host).
import { runUntimed } from '../process/untimed-command.js';

export function skopeoPushArgs(ociDir: string, address: string, repository: string, tag: string): string[] {
  return [
    '--mount',
    '--propagation',
    'private',
    '/bin/sh',
    '-c',
    'mount -t tmpfs -o size=16m,mode=0700 tmpfs /var/lib && exec skopeo --insecure-policy copy --quiet --preserve-digests --dest-tls-verify=false "oci:$1:image" "docker://$2"',
    'skopeo-push',
    ociDir,
    `${address}/${repository}:${tag}`,
  ];
}

export async function pushOciLayout(ociDir: string, address: string, repository: string, tag: string, signal?: AbortSignal): Promise<void> {
  await runUntimed('unshare', skopeoPushArgs(ociDir, address, repository, tag), { signal });
}

/** Asks the registry (plain HTTP on loopback) whether it serves the manifest by digest. */
export async function registryHasManifest(address: string, repository: string, digest: string): Promise<boolean> {
  const res = await fetch(`http://${address}/v2/${repository}/manifests/${digest}`, {
    method: 'HEAD',
    headers: { Accept: 'application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json' },
  });
  return res.ok && res.headers.get('docker-content-digest') === digest;
}

/** The digest of the manifest a tag names in a registry on loopback (plain HTTP); null when it has none. */
export async function registryManifestDigest(address: string, repository: string, tag: string): Promise<string | null> {
  const res = await fetch(`http://${address}/v2/${repository}/manifests/${tag}`, {
    method: 'HEAD',
    headers: { Accept: 'application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json' },
  });
  return res.ok ? res.headers.get('docker-content-digest') : null;
}
