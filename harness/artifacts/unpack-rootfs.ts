// Effects: the root file system of an OCI layout's image as one tar (what the
// erofs image and the rootfs of the paths are made from): `umoci unpack`
// applies the layers in order with their whiteouts, then tar packs the root
// in name order with numeric owners and the layers' own mtimes.
import { mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runUntimed } from '../process/untimed-command.js';

export async function unpackRootfsTar(layoutDir: string, tarFile: string, signal?: AbortSignal): Promise<void> {
  const work = mkdtempSync(join(dirname(tarFile), '.unpack-'));
  try {
    const rootless = process.getuid?.() !== 0 ? ['--rootless'] : [];
    await runUntimed('umoci', ['--log', 'error', 'unpack', ...rootless, '--image', `${layoutDir}:image`, join(work, 'bundle')], { signal });
    await runUntimed('tar', ['--sort=name', '--numeric-owner', '--format=gnu', '-C', join(work, 'bundle', 'rootfs'), '-cf', tarFile, '.'], { signal });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
