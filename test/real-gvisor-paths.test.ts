// Real gVisor paths (root only; CI runs them as root): gvisor-lazy runs
// busybox in a runsc sandbox from the lazy path's on-demand erofs image (nginx
// + rclone + erofs + overlay), gvisor-full from the oci-full path's complete
// pull and unpack (registry + skopeo + umoci + overlay), cold and warm, both
// measured by the C launch helper; the command's output proves it ran under
// gVisor, and after the pair's cleanup nothing is mounted, no sandbox is left.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startService } from '../harness/services/service-kinds.js';
import { runCleanup } from '../harness/process/cleanup.js';
import { harnessDir } from '../harness/process/project-root.js';
import { buildImageTar } from '../harness/artifacts/build-image-tar.js';
import { buildErofsImage } from '../harness/artifacts/erofs-image.js';
import { buildOciLayout } from '../harness/artifacts/oci-layout.js';
import { pushOciLayout } from '../harness/artifacts/registry-push.js';
import { mountsUnder } from '../harness/process/mount-table.js';
import { sha256File } from '../harness/digest/sha256.js';
import { Launcher, type LaunchResult } from '../harness/launch/launcher.js';
import { makeMarker } from '../harness/launch/marker.js';
import { sandboxLeftovers } from './helpers/sandbox-leftovers.js';
import { tempDir } from './helpers/cli.js';

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test.serial : test.serial.skip;
if (!isRoot) console.warn('real-gvisor-paths: skipped, needs root, runsc, crun tools; CI runs it as root');
const noLog = (): void => {};
const paths = () => join(harnessDir(), 'paths');
// gVisor's kernel reports itself in dmesg ("Starting gVisor..."): the proof the command ran in the sandbox, not in crun
const inGvisor = 'grep -qx ID=busybox /etc/os-release && /bin/busybox dmesg | grep -q gVisor';

let dir: string;
let tar: string;
let launcher: Launcher | undefined;

test.before(async () => {
  if (!isRoot) return;
  dir = tempDir('bg-real-gvisor-');
  tar = join(dir, 'image.tar');
  await buildImageTar({ id: 'bb', kind: 'busybox-static', busybox: '/bin/busybox', osRelease: 'ID=busybox\n', repository: 'test/bb' }, tar, noLog);
  launcher = await Launcher.start();
});

test.after.always(async () => {
  await launcher?.close();
  await runCleanup();
  if (dir) {
    await run(join(paths(), 'cleanup-pair.sh'), [dir]).catch(() => undefined);
    if (mountsUnder(dir).length === 0) rmSync(dir, { recursive: true, force: true });
  }
});

function launchPair(script: string, pair: string, source: string[]): (state: string) => Promise<LaunchResult> {
  return (state) => {
    const launchId = `${script.replace(/\.sh$/, '')}-${state}`;
    const marker = makeMarker(launchId);
    return launcher!.launch({
      launchId,
      argv: [join(paths(), script), state, pair, join(pair, `w-${state}`), ...source, '--', '/bin/sh', '-c', `${inGvisor} && echo ${marker}`],
      env: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' },
      cwd: pair,
      marker,
      timeoutMs: 60_000,
      tailBytes: 4096,
    });
  };
}

rootTest('gvisor-lazy runs busybox in a gVisor sandbox from the on-demand erofs image, cold then warm, and its pair cleanup leaves nothing', async (t) => {
  t.timeout(120_000);
  const files = join(dir, 'files');
  await buildErofsImage(tar, join(files, 'bb.erofs'));
  const cache = await startService('cache', { kind: 'nginx-files', count_bytes: true, with: {} }, files, join(dir, 'nginx'), noLog);
  const pair = join(dir, 'pair-lazy');
  mkdirSync(pair);
  try {
    const launch = launchPair('gvisor-lazy-launch.sh', pair, [`${cache.endpoint.url}/`, 'bb.erofs']);
    for (const state of ['cold', 'warm']) {
      const r = await launch(state);
      t.is(r.state, 'ok', `${state}: ${r.failureReason ?? ''} ${r.stderrTail}`);
      t.false(launcher!.lastStrayKilled, `the ${state} launch leaves nothing in its process group`);
    }
    await run(join(paths(), 'cleanup-pair.sh'), [pair, '--remove']);
    t.deepEqual(
      sandboxLeftovers(pair).filter((l) => !l.startsWith('folder')),
      [],
    );
  } finally {
    await cache.stop();
  }
});

rootTest('gvisor-full runs busybox in a gVisor sandbox after a complete pull and unpack, cold then warm, and its pair cleanup leaves nothing', async (t) => {
  t.timeout(120_000);
  const pin = await buildOciLayout(tar, await sha256File(tar), join(dir, 'oci'));
  mkdirSync(join(dir, 'storage'));
  const registry = await startService(
    'registry',
    { kind: 'docker-registry', count_bytes: true, with: { read_only: false } },
    join(dir, 'storage'),
    join(dir, 'reg'),
    noLog,
  );
  const pair = join(dir, 'pair-full');
  mkdirSync(pair);
  try {
    await pushOciLayout(join(dir, 'oci'), registry.endpoint.address!, 'test/bb', 'pinned');
    const launch = launchPair('gvisor-full-launch.sh', pair, [`${registry.endpoint.address}/test/bb@${pin.manifestDigest}`]);
    for (const state of ['cold', 'warm']) {
      const r = await launch(state);
      t.is(r.state, 'ok', `${state}: ${r.failureReason ?? ''} ${r.stderrTail}`);
      t.false(launcher!.lastStrayKilled, `the ${state} launch leaves nothing in its process group`);
    }
    await run(join(paths(), 'cleanup-pair.sh'), [pair, '--remove']);
    t.deepEqual(
      sandboxLeftovers(pair).filter((l) => !l.startsWith('folder')),
      [],
    );
  } finally {
    await registry.stop();
  }
});

rootTest('the same check fails under crun (lazy path): it tells a gVisor sandbox from a container', async (t) => {
  t.timeout(60_000);
  const files = join(dir, 'files-crun');
  await buildErofsImage(tar, join(files, 'bb.erofs'));
  const cache = await startService('cache', { kind: 'nginx-files', count_bytes: true, with: {} }, files, join(dir, 'nginx-crun'), noLog);
  const pair = join(dir, 'pair-crun');
  mkdirSync(pair);
  try {
    const r = await launchPair('lazy-launch.sh', pair, [`${cache.endpoint.url}/`, 'bb.erofs'])('cold');
    t.is(r.state, 'failed');
    await run(join(paths(), 'cleanup-pair.sh'), [pair, '--remove']);
  } finally {
    await cache.stop();
  }
});
