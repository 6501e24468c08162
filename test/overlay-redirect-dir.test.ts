// The kernel's overlay redirect_dir parameter is restored after SIGTERM and,
// by the next start, after SIGKILL. Real kernel setting (root only); each test
// holds it changed for a few milliseconds, since other engines on the machine
// would see it.
import test from 'ava';
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot, tempDir } from './helpers/cli.js';
import { lockRedirectDirWindow, readRedirectDir, redirectDirRecordFile, restoreLeftoverRedirectDir } from '../harness/process/overlay-redirect-dir.js';
import { takeTurnsWithOverlayUsers } from './helpers/overlay-users.js';
import { CLI_NODE_FLAGS } from '../harness/process/cli-argv.js';

takeTurnsWithOverlayUsers();

const isRoot = process.getuid?.() === 0 && existsSync('/sys/module/overlay/parameters/redirect_dir');
const rootTest = isRoot ? test.serial : test.skip;

/** A child that sets redirect_dir to the other value, prints SET, then waits. */
function holder(dataDir: string, value: string) {
  const mod = pathToFileURL(join(projectRoot, 'dist', 'harness', 'process', 'overlay-redirect-dir.js')).href;
  const code = `const m = await import(${JSON.stringify(mod)}); m.setRedirectDir(${JSON.stringify(dataDir)}, ${JSON.stringify(value)}); console.log('SET'); setInterval(() => {}, 1000);`;
  return spawn(process.execPath, [...CLI_NODE_FLAGS, '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
}

async function holdThen(signal: NodeJS.Signals, dataDir: string, value: string): Promise<{ seen: string }> {
  const child = holder(dataDir, value);
  let seen = '';
  await new Promise<void>((res) => {
    child.stdout!.on('data', (b: Buffer) => {
      if (b.toString().includes('SET')) {
        seen = readRedirectDir();
        child.kill(signal);
      }
    });
    child.on('close', () => res());
  });
  return { seen };
}

// Each test holds the machine-wide window lock, so a commit-diff run starting its engines meanwhile waits.
let unlock: (() => Promise<void>) | null = null;
test.beforeEach(async () => {
  if (isRoot) unlock = await lockRedirectDirWindow();
});
test.afterEach.always(async () => {
  await unlock?.();
  unlock = null;
});

rootTest('a runner stopped by SIGTERM while redirect_dir is changed puts it back and removes its record', async (t) => {
  const dataDir = tempDir('bg-redirect-');
  const before = readRedirectDir();
  const other = before === 'Y' ? 'N' : 'Y';
  const { seen } = await holdThen('SIGTERM', dataDir, other);
  t.is(seen, other, 'the child changed the setting');
  t.is(readRedirectDir(), before);
  t.false(existsSync(redirectDirRecordFile(dataDir)));
  rmSync(dataDir, { recursive: true, force: true });
});

rootTest('after a runner is killed by SIGKILL while redirect_dir is changed, the next start restores it from the record', async (t) => {
  const dataDir = tempDir('bg-redirect-');
  const before = readRedirectDir();
  const other = before === 'Y' ? 'N' : 'Y';
  try {
    await holdThen('SIGKILL', dataDir, other);
    t.true(existsSync(redirectDirRecordFile(dataDir)), 'the killed runner left its record');
  } finally {
    const restored = restoreLeftoverRedirectDir(dataDir);
    t.truthy(restored);
  }
  t.is(readRedirectDir(), before);
  t.false(existsSync(redirectDirRecordFile(dataDir)));
  rmSync(dataDir, { recursive: true, force: true });
});
