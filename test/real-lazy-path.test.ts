// Real engine tests (root only; CI runs them as root): the lazy launcher runs
// busybox from an erofs image read on demand over rclone from nginx, warm
// reuses the pair's mounts, and the after_pair hook leaves no mount and no
// rclone behind; the oci-full launcher pulls, unpacks and runs the same image.
import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startService } from '../harness/services/service-kinds.js';
import { runCleanup } from '../harness/engine/cleanup.js';
import { harnessDir } from '../harness/engine/project-root.js';
import { buildImageTar } from '../harness/paths/build-image-tar.js';
import { buildErofsImage } from '../harness/paths/erofs-image.js';
import { buildOciLayout } from '../harness/paths/oci-layout.js';
import { pushOciLayout } from '../harness/paths/registry-push.js';
import { mountsUnder } from '../harness/services/mount-table.js';
import { sha256File } from '../harness/engine/sha256.js';

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test.serial : test.serial.skip;
if (!isRoot) console.warn('real-lazy-path: skipped, needs root (mounts, crun); CI runs it as root');
const noLog = (): void => {};
const paths = () => join(harnessDir(), 'paths');
const command = ['/bin/sh', '-c', 'grep -qx ID=busybox /etc/os-release && echo READY'];

function loopFilesUnder(root: string): string[] {
  return readdirSync('/sys/block')
    .filter((d) => d.startsWith('loop'))
    .map((d) => {
      try {
        return readFileSync(`/sys/block/${d}/loop/backing_file`, 'utf8').trim();
      } catch {
        return '';
      }
    })
    .filter((b) => b.startsWith(root + '/'));
}

let dir: string;
let tar: string;

test.before(async () => {
  if (!isRoot) return;
  dir = mkdtempSync(join(tmpdir(), 'bg-real-lazy-'));
  tar = join(dir, 'image.tar');
  await buildImageTar({ id: 'bb', kind: 'busybox-static', busybox: '/bin/busybox', osRelease: 'ID=busybox\n', repository: 'test/bb' }, tar, noLog);
});

test.after.always(async () => {
  await runCleanup();
  if (dir) {
    await run(join(paths(), 'cleanup-pair.sh'), [dir]).catch(() => undefined);
    if (mountsUnder(dir).length === 0) rmSync(dir, { recursive: true, force: true });
  }
});

rootTest('the lazy launcher runs busybox from an erofs image over rclone, warm reuses the mounts, and after_pair leaves no mount', async (t) => {
  t.timeout(90_000);
  const files = join(dir, 'files');
  await buildErofsImage(tar, join(files, 'bb.erofs'));
  const cache = await startService('cache', { kind: 'nginx-files', count_bytes: true, with: {} }, files, join(dir, 'nginx'), noLog);
  try {
    const pair = join(dir, 'pair-1');
    mkdirSync(pair);
    const launch = (state: string, ws: string) => run(join(paths(), 'lazy-launch.sh'), [state, pair, join(pair, ws), `${cache.endpoint.url}/`, 'bb.erofs', '--', ...command]);
    t.is((await launch('cold', 'w-cold')).stdout.trim(), 'READY');
    t.true(mountsUnder(pair).length >= 2, 'rclone and erofs stay mounted for the warm launch');
    const rclonePid = Number(readFileSync(join(pair, 'lazy', 'rclone.pid'), 'utf8'));
    t.is((await launch('warm', 'w-warm')).stdout.trim(), 'READY');
    const access = readFileSync(join(dir, 'nginx', 'logs', 'access.log'), 'utf8');
    t.regex(access, /"GET \/bb\.erofs HTTP\/1\.1" 206 /, 'the image is read with Range requests');

    await run(join(paths(), 'cleanup-pair.sh'), [pair, '--remove']);
    t.deepEqual(mountsUnder(pair), [], 'no mount is left after the after_pair hook');
    t.deepEqual(loopFilesUnder(pair), [], 'no loop device reads the image any more');
    t.false(existsSync(`/proc/${rclonePid}/cmdline`) && readFileSync(`/proc/${rclonePid}/cmdline`, 'utf8').includes('rclone'), 'rclone is gone');
    t.false(existsSync(join(pair, 'lazy')));
    await run(join(paths(), 'cleanup-pair.sh'), [pair, '--remove']); // idempotent
  } finally {
    await cache.stop();
  }
});

rootTest('a warm lazy launch without the cold launch of its pair fails with a reason and mounts nothing', async (t) => {
  const pair = join(dir, 'pair-2');
  mkdirSync(pair);
  const err = await t.throwsAsync(run(join(paths(), 'lazy-launch.sh'), ['warm', pair, join(pair, 'w'), 'http://127.0.0.1:9/', 'bb.erofs', '--', ...command]));
  t.regex(String((err as { stderr?: string }).stderr), /warm launch without the pair's mounts/);
  t.deepEqual(mountsUnder(pair), []);
});

rootTest('a cold lazy launch whose cache server is down fails and leaves no mount and no rclone', async (t) => {
  const pair = join(dir, 'pair-3');
  mkdirSync(pair);
  await t.throwsAsync(run(join(paths(), 'lazy-launch.sh'), ['cold', pair, join(pair, 'w'), 'http://127.0.0.1:9/', 'bb.erofs', '--', ...command], { timeout: 30_000 }));
  t.deepEqual(mountsUnder(pair), []);
});

rootTest('the oci-full launcher pulls and unpacks the image, runs it cold and warm, and the hook removes the unpacked copy', async (t) => {
  t.timeout(90_000);
  const pin = await buildOciLayout(tar, await sha256File(tar), join(dir, 'oci'));
  mkdirSync(join(dir, 'storage'));
  const registry = await startService('registry', { kind: 'docker-registry', count_bytes: true, with: { read_only: false } }, join(dir, 'storage'), join(dir, 'reg'), noLog);
  try {
    await pushOciLayout(join(dir, 'oci'), registry.endpoint.address!, 'test/bb', 'pinned');
    const pair = join(dir, 'pair-oci');
    mkdirSync(pair);
    const ref = `${registry.endpoint.address}/test/bb@${pin.manifestDigest}`;
    const launch = (state: string, ws: string) => run(join(paths(), 'oci-full-launch.sh'), [state, pair, join(pair, ws), ref, '--', ...command]);
    t.is((await launch('cold', 'w-cold')).stdout.trim(), 'READY');
    t.is((await launch('warm', 'w-warm')).stdout.trim(), 'READY');
    t.deepEqual(mountsUnder(pair), [], 'the overlays live in private mount namespaces');
    await run(join(paths(), 'cleanup-pair.sh'), [pair, '--remove']);
    t.false(existsSync(join(pair, 'oci')));
  } finally {
    await registry.stop();
  }
});
