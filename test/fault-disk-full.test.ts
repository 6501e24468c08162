// Fault: the data folder's file system fills up during a run (root only: it
// mounts a size-limited tmpfs in a temporary folder and always unmounts it).
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { QUICK, runCli, smokeProject } from './helpers/cli.js';
import { inspectFrozen } from '../harness/engine/frozen-check.js';
import { freeSpace } from '../harness/engine/disk-full.js';
import { Store } from '../harness/engine/store.js';
import { mountsUnder } from '../harness/process/mount-table.js';

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test : test.skip;
if (!isRoot) console.warn('fault-disk-full: skipped, needs root (mounts a tmpfs); CI runs it as root');

/** Leaves `leaveBytes` free on the file system of `dir` with a filler file; returns its path. */
function fill(dir: string, leaveBytes: number): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  try {
    const chunk = Buffer.alloc(64 * 1024, 0x5a);
    for (let left = freeSpace(dir).freeBytes - leaveBytes; left > 0; left -= chunk.length) writeSync(fd, chunk, 0, Math.min(chunk.length, left));
  } finally {
    closeSync(fd);
  }
  return file;
}

rootTest(
  'a data folder that fills up stops the run with one line naming it and its free space, corrupts nothing, and the run resumes once space is freed',
  async (t) => {
    t.timeout(120_000);
    const dir = smokeProject();
    const mnt = join(dir, 'small');
    mkdirSync(mnt);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=0755', 'benchgraph-test', mnt]);
    try {
      const data = join(mnt, 'data');
      // Room for the warmup and part of the sampling, not for the samples database's checkpoint.
      const filler = fill(mnt, 350 * 1024);
      const full = await runCli(['run', '--data', data, ...QUICK], dir);
      t.is(full.code, 1, full.stderr);
      const failure = full.stderr.split('\n').filter((l) => l.startsWith('failed:') || /internal error|^\s+at /.test(l));
      t.is(failure.length, 1, full.stderr);
      t.log(failure[0]);
      t.regex(failure[0]!, new RegExp(`no space left on the file system of the data folder ${data}: \\d+ bytes free of \\d+`));

      const store = new Store(data);
      for (const [kind, key] of store.listFrozen()) t.is((await inspectFrozen(store, kind, key)).state, 'intact', `${kind}/${key}`);
      for (const sub of ['tmp', 'run']) t.deepEqual(existsSync(join(data, sub)) ? readdirSync(join(data, sub)) : [], [], `nothing left in ${sub}/`);

      rmSync(filler);
      const again = await runCli(['run', '--data', data, ...QUICK], dir);
      t.is(again.code, 0, again.stderr);
      const audit = await runCli(['audit', '--data', data, ...QUICK], dir);
      t.is(audit.code, 0, audit.stdout + audit.stderr);
    } finally {
      execFileSync('umount', [mnt]);
    }
    t.deepEqual(mountsUnder(dir), []);
  },
);
