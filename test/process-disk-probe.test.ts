// The disk probe on the real disk under the data folder's parent: 64 MiB
// written with fsync and read back after dropping its pages, its file gone
// afterwards.
import test from 'ava';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { dirtyMemoryKb, probeDisk } from '../harness/process/disk-probe.js';
import { projectRoot } from '../harness/process/project-root.js';

const probeBytes = 64 * 1024 * 1024;

test('the probe writes and reads 64 MiB on the real disk, reads after the pages were dropped, records the dirty settings and leaves no file', async (t) => {
  // the project's folder is on the disk the data folder uses (not a tmpfs /tmp)
  const dir = await mkdtemp(join(projectRoot(), '.disk-probe-test-'));
  try {
    const p = await probeDisk(dir, probeBytes);
    t.log(
      `${p.filesystem}: write ${p.writeMBps?.toFixed(0)} MB/s (${p.writeMs?.toFixed(0)} ms), read ${p.readMBps?.toFixed(0)} MB/s (${p.readMs?.toFixed(0)} ms), ${p.readMode}, resident before read ${p.residentBeforeReadBytes}, dirty_ratio ${p.dirty.dirtyRatio}`,
    );
    t.is(p.state, 'ok');
    t.is(p.bytes, probeBytes);
    t.true(p.writeMBps! > 0 && Number.isFinite(p.writeMBps!));
    t.true(p.readMBps! > 0 && Number.isFinite(p.readMBps!));
    t.is(p.readMode, 'cache-dropped');
    t.true(p.residentBeforeReadBytes! <= 0.01 * probeBytes);
    t.is(typeof p.dirty.dirtyRatio, 'number');
    t.is(typeof p.dirty.dirtyExpireCentisecs, 'number');
    t.is(typeof p.dirty.dirtyKb, 'number');
    t.deepEqual(await readdir(dir), []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a probe size out of bounds is refused before anything is written', async (t) => {
  const dir = await mkdtemp(join(projectRoot(), '.disk-probe-test-'));
  try {
    await t.throwsAsync(() => probeDisk(dir, 4 * 1024 * 1024 * 1024), { message: /bytes must be an integer in/ });
    t.deepEqual(await readdir(dir), []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('Dirty and Writeback are read from a meminfo text in kB', (t) => {
  t.deepEqual(dirtyMemoryKb('MemTotal:  100 kB\nDirty:            1234 kB\nWriteback:           5 kB\n'), { dirtyKb: 1234, writebackKb: 5 });
  t.deepEqual(dirtyMemoryKb(''), { dirtyKb: null, writebackKb: null });
});
