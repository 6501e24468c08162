// Real engine tests (root only; CI runs them as root): the lazy launcher runs
// busybox from an erofs image read on demand over rclone from nginx, measured
// by the real launch helper (which kills whatever a launch leaves in its
// process group): rclone survives the cold launch, the warm launch reads
// through the live FUSE mount, and the after_pair hook leaves no mount and no
// rclone behind; the oci-full launcher pulls, unpacks and runs the same image.
import test from 'ava';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
import { Launcher, type LaunchRequest, type LaunchResult } from '../harness/launch/launcher.js';
import { makeMarker } from '../harness/launch/marker.js';
import { alive } from './helpers/processes.js';
import { tempDir } from './helpers/cli.js';

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

/** Running and not a zombie (state field of /proc/PID/stat). */

/** Pids of live rclone processes whose command line names a path under root. */
function rclonesUnder(root: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^[0-9]+$/.test(d))
    .filter((d) => {
      try {
        const argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
        return argv[0]?.endsWith('rclone') && argv.some((a) => a.startsWith(root + '/')) && alive(Number(d));
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Lines nginx has logged so far (one per request). */
function accessLines(logFile: string): string[] {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
}

let dir: string;
let tar: string;
/** sha256 of /data/unread.bin in the image: 4 MiB of random bytes only the warm launch reads. */
let unreadSha256: string;
let launcher: Launcher | undefined;

test.before(async () => {
  if (!isRoot) return;
  dir = tempDir('bg-real-lazy-');
  tar = join(dir, 'image.tar');
  await buildImageTar({ id: 'bb', kind: 'busybox-static', busybox: '/bin/busybox', osRelease: 'ID=busybox\n', repository: 'test/bb' }, tar, noLog);
  const extra = join(dir, 'extra');
  mkdirSync(join(extra, 'data'), { recursive: true });
  const bytes = randomBytes(4 * 1024 * 1024);
  writeFileSync(join(extra, 'data', 'unread.bin'), bytes);
  unreadSha256 = createHash('sha256').update(bytes).digest('hex');
  await run('tar', ['--owner=0', '--group=0', '--numeric-owner', '-C', extra, '--no-recursion', '-rf', tar, './data', './data/unread.bin']);
  rmSync(extra, { recursive: true, force: true });
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

rootTest(
  'the lazy launcher runs busybox from an erofs image over rclone, rclone survives the cold launch, warm reads through the live mount, and after_pair leaves nothing',
  async (t) => {
    t.timeout(120_000);
    const files = join(dir, 'files');
    await buildErofsImage(tar, join(files, 'bb.erofs'));
    const cache = await startService('cache', { kind: 'nginx-files', count_bytes: true, with: {} }, files, join(dir, 'nginx'), noLog);
    try {
      const pair = join(dir, 'pair-1');
      mkdirSync(pair);
      const accessLog = join(dir, 'nginx', 'logs', 'access.log');
      const launch = (state: string, script: string): Promise<LaunchResult> => {
        const launchId = `lazy-${state}`;
        const marker = makeMarker(launchId);
        const req: LaunchRequest = {
          launchId,
          argv: [
            join(paths(), 'lazy-launch.sh'),
            state,
            pair,
            join(pair, `w-${state}`),
            `${cache.endpoint.url}/`,
            'bb.erofs',
            '--',
            '/bin/sh',
            '-c',
            `${script} && echo ${marker}`,
          ],
          env: { PATH: process.env['PATH'] ?? '/usr/sbin:/usr/bin:/sbin:/bin' },
          cwd: pair,
          marker,
          timeoutMs: 60_000,
          tailBytes: 4096,
        };
        return launcher!.launch(req);
      };

      const cold = await launch('cold', 'grep -qx ID=busybox /etc/os-release');
      t.is(cold.state, 'ok', `cold launch: ${cold.failureReason ?? ''} ${cold.stderrTail}`);
      t.false(launcher!.lastStrayKilled, 'the cold launch leaves nothing in its process group (rclone runs in its own session)');
      t.true(mountsUnder(pair).length >= 2, 'rclone and erofs stay mounted for the warm launch');
      const rclonePid = Number(readFileSync(join(pair, 'lazy', 'rclone.pid'), 'utf8'));
      t.true(rclonePid > 1);
      t.true(readFileSync(`/proc/${rclonePid}/cmdline`, 'utf8').startsWith('rclone\0mount\0'), 'the pid file names the rclone mount');
      t.true(alive(rclonePid), 'rclone is alive (not a zombie) after the cold launch');
      const statFields = readFileSync(`/proc/${rclonePid}/stat`, 'utf8').split(') ')[1]!.split(' '); // state ppid pgrp session ...
      t.is(Number(statFields[3]), rclonePid, "rclone leads a session of its own, outside the launch's process group");

      const requestsBeforeWarm = accessLines(accessLog).length;
      const warm = await launch('warm', `/bin/busybox sha256sum /data/unread.bin | grep -q '^${unreadSha256} '`);
      t.is(warm.state, 'ok', `warm launch reads a file the cold launch did not: ${warm.failureReason ?? ''} ${warm.stderrTail}`);
      t.false(launcher!.lastStrayKilled, 'the warm launch leaves nothing in its process group');
      const warmRequests = accessLines(accessLog).slice(requestsBeforeWarm);
      t.true(warmRequests.length > 0, 'the warm launch fetched the unread file through the live FUSE mount');
      t.true(
        warmRequests.every((l) => /"GET \/bb\.erofs HTTP\/1\.1" 206 /.test(l)),
        'the image is read with Range requests',
      );
      t.true(alive(rclonePid), 'rclone is still alive after the warm launch');

      await run(join(paths(), 'cleanup-pair.sh'), [pair, '--remove']);
      t.deepEqual(mountsUnder(pair), [], 'no mount is left after the after_pair hook');
      t.deepEqual(loopFilesUnder(pair), [], 'no loop device reads the image any more');
      t.false(alive(rclonePid), 'rclone is gone');
      t.deepEqual(rclonesUnder(pair), [], 'no rclone of this pair is left');
      t.false(existsSync(join(pair, 'lazy')));
      await run(join(paths(), 'cleanup-pair.sh'), [pair, '--remove']); // idempotent
    } finally {
      await cache.stop();
    }
  },
);

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
  await t.throwsAsync(
    run(join(paths(), 'lazy-launch.sh'), ['cold', pair, join(pair, 'w'), 'http://127.0.0.1:9/', 'bb.erofs', '--', ...command], { timeout: 30_000 }),
  );
  t.deepEqual(mountsUnder(pair), []);
  t.deepEqual(rclonesUnder(pair), [], 'the rclone started in its own session is stopped by the undo');
});

rootTest('the oci-full launcher pulls and unpacks the image, runs it cold and warm, and the hook removes the unpacked copy', async (t) => {
  t.timeout(90_000);
  const pin = await buildOciLayout(tar, await sha256File(tar), join(dir, 'oci'));
  mkdirSync(join(dir, 'storage'));
  const registry = await startService(
    'registry',
    { kind: 'docker-registry', count_bytes: true, with: { read_only: false } },
    join(dir, 'storage'),
    join(dir, 'reg'),
    noLog,
  );
  try {
    await pushOciLayout(join(dir, 'oci'), registry.endpoint.address!, 'test/bb', 'pinned');
    const pair = join(dir, 'pair-oci');
    mkdirSync(pair);
    const ref = `${registry.endpoint.address}/test/bb@${pin.manifestDigest}`;
    const launch = (state: string): Promise<LaunchResult> => {
      const launchId = `oci-full-${state}`;
      const marker = makeMarker(launchId);
      return launcher!.launch({
        launchId,
        argv: [
          join(paths(), 'oci-full-launch.sh'),
          state,
          pair,
          join(pair, `w-${state}`),
          ref,
          '--',
          '/bin/sh',
          '-c',
          `grep -qx ID=busybox /etc/os-release && echo ${marker}`,
        ],
        env: { PATH: process.env['PATH'] ?? '/usr/sbin:/usr/bin:/sbin:/bin' },
        cwd: pair,
        marker,
        timeoutMs: 60_000,
        tailBytes: 4096,
      });
    };
    for (const state of ['cold', 'warm']) {
      const r = await launch(state);
      t.is(r.state, 'ok', `${state} launch: ${r.failureReason ?? ''} ${r.stderrTail}`);
      t.false(launcher!.lastStrayKilled, `the ${state} launch leaves nothing in its process group`);
    }
    t.deepEqual(mountsUnder(pair), [], 'the overlays live in private mount namespaces');
    await run(join(paths(), 'cleanup-pair.sh'), [pair, '--remove']);
    t.false(existsSync(join(pair, 'oci')));
  } finally {
    await registry.stop();
  }
});
