// Effects: builds the root file system tar of an image recipe.
// mmdebstrap (Debian minbase, optionally with packages) or, for tests, a tiny
// root holding only busybox-static and /etc/os-release (no network needed).
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ImageRecipe } from './image-recipe.js';
import { runUntimed } from '../process/untimed-command.js';

const BUSYBOX_APPLETS = [
  'sh',
  'cat',
  'echo',
  'grep',
  'ls',
  'env',
  'sleep',
  'true',
  'false',
  'test',
  'head',
  'tail',
  'wc',
  'id',
  'uname',
  'mkdir',
  'rm',
  'cp',
  'mv',
  'sed',
  'awk',
  'tr',
  'printf',
];

/** mmdebstrap's argv for a recipe (pure). */
export function mmdebstrapArgs(r: Extract<ImageRecipe, { kind: 'mmdebstrap' }>, outFile: string): string[] {
  return [
    `--variant=${r.variant}`,
    '--format=tar',
    '--mode=root',
    ...(r.include.length ? [`--include=${r.include.join(',')}`] : []),
    r.suite,
    outFile,
    r.mirror,
  ];
}

export async function buildImageTar(recipe: ImageRecipe, outFile: string, log: (l: string) => void, signal?: AbortSignal): Promise<void> {
  mkdirSync(dirname(outFile), { recursive: true });
  if (recipe.kind === 'mmdebstrap') {
    const args = mmdebstrapArgs(recipe, outFile);
    log(`pin: mmdebstrap ${args.join(' ')}`);
    await runUntimed('mmdebstrap', args, { env: { ...process.env, SOURCE_DATE_EPOCH: String(recipe.sourceDateEpoch), LC_ALL: 'C.UTF-8' }, signal });
    return;
  }
  const root = mkdtempSync(join(dirname(outFile), '.busybox-root-'));
  try {
    for (const d of ['bin', 'etc', 'proc', 'sys', 'dev', 'tmp', 'root']) mkdirSync(join(root, d));
    chmodSync(join(root, 'tmp'), 0o1777);
    chmodSync(join(root, 'root'), 0o700);
    copyFileSync(recipe.busybox, join(root, 'bin', 'busybox'));
    chmodSync(join(root, 'bin', 'busybox'), 0o755);
    for (const a of BUSYBOX_APPLETS) symlinkSync('busybox', join(root, 'bin', a));
    writeFileSync(join(root, 'etc', 'os-release'), recipe.osRelease);
    await runUntimed('tar', ['--sort=name', '--mtime=@0', '--owner=0', '--group=0', '--numeric-owner', '-C', root, '-cf', outFile, '.'], { signal });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
