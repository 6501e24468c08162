// Real gVisor (root only; CI runs it as root): an app in a runsc sandbox is
// checkpointed by gvisor-checkpoint-app.sh, and gvisor-restore.sh, launched
// through the C launch helper as an effect row's side is, restores it.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildImageTar } from '../harness/artifacts/build-image-tar.js';
import { Launcher } from '../harness/launch/launcher.js';
import { makeMarker } from '../harness/launch/marker.js';
import { openRowFolder, sandboxScriptsDir } from '../harness/sandbox/row-folder.js';
import { printedValues } from '../harness/sandbox/printed-values.js';
import { sandboxLeftovers } from './helpers/sandbox-leftovers.js';

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test : test.skip;
if (!isRoot) console.warn('sandbox-checkpoint-restore: skipped, needs root and runsc; CI runs it as root');

const ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' };
const script = (name: string) => join(sandboxScriptsDir(), name);

rootTest(
  'a checkpointed app restored through the launch helper is Ready with its in-sandbox state back, and closing its row folder leaves nothing',
  async (t) => {
    t.timeout(120_000);
    const folder = openRowFolder('test-cr');
    const launcher = await Launcher.start();
    const token = randomBytes(8).toString('hex');
    try {
      const root = join(folder.dir, 'rootfs');
      mkdirSync(root);
      const tar = join(folder.dir, 'bb.tar');
      await buildImageTar({ id: 'bb', kind: 'busybox-static', busybox: '/bin/busybox', osRelease: 'ID=busybox\n', repository: 'test/bb' }, tar, () => {});
      execFileSync('tar', ['-xf', tar, '-C', root]);
      // the app keeps a token and a few MiB in its sandbox's own tmpfs (part of the checkpoint, not of the host)
      const setup = execFileSync(
        script('gvisor-checkpoint-app.sh'),
        [
          folder.dir,
          'app',
          root,
          'APP-READY',
          '30',
          '--',
          '/bin/sh',
          '-c',
          `echo ${token} > /tmp/token; head -c 2000000 /dev/urandom > /tmp/heap; echo APP-READY; while :; do sleep 1; done`,
        ],
        { encoding: 'utf8' },
      );
      const facts = printedValues(setup);
      t.true(facts['image_bytes']! > 0, setup);

      const marker = makeMarker('test-cr.restore');
      const r = await launcher.launch({
        launchId: 'test-cr.restore',
        argv: [script('gvisor-restore.sh'), folder.dir, join(folder.dir, 'app', 'bundle'), join(folder.dir, 'app', 'image'), marker],
        env: { ...ENV, GVISOR_RESTORE_EXEC: 'cat /tmp/token' },
        cwd: folder.dir,
        marker,
        timeoutMs: 60_000,
        tailBytes: 4096,
      });
      t.is(r.state, 'ok', `${r.failureReason} ${r.stderrTail}`);
      t.true(r.readyMs! > 0 && r.readyMs! <= r.completionMs!);
      t.is(r.stdoutTail.trim().split('\n').at(-1), token, 'the restored sandbox still holds the token written before the checkpoint');
      // with a ready check, the marker comes from a process in the restored sandbox, and only when the check holds
      for (const [check, ok] of [
        [`grep -qx ${token} /tmp/token`, true],
        ['test -e /tmp/no-such-file', false],
      ] as const) {
        const id = `test-cr.check-${ok}`;
        const m = makeMarker(id);
        const c = await launcher.launch({
          launchId: id,
          argv: [script('gvisor-restore.sh'), folder.dir, join(folder.dir, 'app', 'bundle'), join(folder.dir, 'app', 'image'), m],
          env: { ...ENV, GVISOR_RESTORE_READY_CHECK: check },
          cwd: folder.dir,
          marker: m,
          timeoutMs: 60_000,
          tailBytes: 4096,
        });
        t.is(c.state === 'ok' && c.readyMs !== null, ok, `${check}: ${c.state} ${c.failureReason ?? ''} ${c.stderrTail}`);
      }
      const left = execFileSync(script('runsc.sh'), [folder.dir, 'list', '-quiet'], { encoding: 'utf8' }).trim();
      t.is(left, '', 'the restore launches delete their sandboxes (and the checkpointed one is gone)');
    } finally {
      await launcher.close();
      await folder.close();
    }
    t.deepEqual(sandboxLeftovers(folder.dir), []);
  },
);
