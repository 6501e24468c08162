// Effects: skopeo for images the user brings: read a source's raw manifest
// and copy it into an OCI layout. As root it runs in a private mount
// namespace whose /var/lib is a tmpfs, so skopeo's blob-info cache is neither
// read nor left on the host (as registry-push.ts does).
import { runUntimed } from '../process/untimed-command.js';
import { skopeoReference, type ImageSource } from './image-source.js';

function tlsFlag(src: ImageSource, flag: string): string[] {
  return src.kind === 'registry' && !src.tlsVerify ? [`${flag}=false`] : [];
}

async function skopeo(args: string[], signal?: AbortSignal): Promise<string> {
  if (process.getuid?.() !== 0) return runUntimed('skopeo', ['--insecure-policy', ...args], { signal });
  return runUntimed(
    'unshare',
    [
      '--mount',
      '--propagation',
      'private',
      '/bin/sh',
      '-c',
      'mount -t tmpfs -o size=16m,mode=0700 tmpfs /var/lib && exec skopeo --insecure-policy "$@"',
      'skopeo',
      ...args,
    ],
    { signal },
  );
}

/** The source's manifest (or index) exactly as stored: its sha256 is the source digest. */
export function inspectRaw(src: ImageSource, signal?: AbortSignal): Promise<string> {
  return skopeo(['inspect', '--raw', ...tlsFlag(src, '--tls-verify'), skopeoReference(src)], signal);
}

/** Copies the platform's image into `oci:<layoutDir>:image`; `preserve` keeps every digest (refused when skopeo must convert). */
export async function copyToLayout(src: ImageSource, layoutDir: string, preserve: boolean, signal?: AbortSignal): Promise<void> {
  const p = src.platform;
  await skopeo(
    [
      'copy',
      '--quiet',
      ...(preserve ? ['--preserve-digests'] : []),
      ...tlsFlag(src, '--src-tls-verify'),
      '--override-os',
      p.os,
      '--override-arch',
      p.architecture,
      ...(p.variant ? ['--override-variant', p.variant] : []),
      skopeoReference(src),
      `oci:${layoutDir}:image`,
    ],
    signal,
  );
}
