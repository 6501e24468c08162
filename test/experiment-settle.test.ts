// The settle waits on real dirty pages: a file written without sync on the
// data folder's disk leaves Dirty + Writeback high until the settle has synced
// it out.
import test from 'ava';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { settle } from '../harness/experiment/settle.js';
import { dirtyMemoryKb } from '../harness/process/disk-probe.js';
import { projectRoot } from '../harness/process/project-root.js';

const THRESHOLD_KB = 16 * 1024;

function dirtyNowKb(): number {
  const d = dirtyMemoryKb(readFileSync('/proc/meminfo', 'utf8'));
  return d.dirtyKb! + d.writebackKb!;
}

test('the settle returns only after Dirty + Writeback of a 200 MB unsynced write fall below the threshold', async (t) => {
  const dir = join(projectRoot(), '.data', 'tmp', `settle-test-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'dirty.bin');
  try {
    const chunk = Buffer.alloc(1 << 20, 0xa5);
    let before = 0;
    // Another test's settle may sync the machine while this one writes: write again until the pages are seen dirty.
    for (let attempt = 0; attempt < 5 && before < THRESHOLD_KB; attempt++) {
      const fd = openSync(file, 'w');
      for (let i = 0; i < 200; i++) writeSync(fd, chunk);
      closeSync(fd); // no fsync: the pages stay dirty until the kernel or a sync writes them
      before = dirtyNowKb();
    }
    t.true(before >= THRESHOLD_KB, `the write left ${before} kB dirty: nothing to wait for`);
    const out = await settle({ enabled: true, dirty_kb: THRESHOLD_KB, timeout_s: 120, poll_ms: 20 });
    t.false(out.timedOut);
    t.true(out.dirtyKb! + out.writebackKb! < THRESHOLD_KB, `after the settle ${out.dirtyKb} + ${out.writebackKb} kB`);
    t.true(out.settleMs! > 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a settle that cannot reach its threshold stops at its timeout and says so', async (t) => {
  const out = await settle({ enabled: true, dirty_kb: 0, timeout_s: 0.2, poll_ms: 20 });
  // Dirty + Writeback below 0 kB is impossible, so the wait ends at the timeout.
  t.true(out.timedOut);
  t.true(out.settleMs! >= 200);
});

test('settling off measures nothing but still reads the dirty pages', async (t) => {
  const out = await settle({ enabled: false, dirty_kb: 8192, timeout_s: 30, poll_ms: 50 });
  t.is(out.settleMs, null);
  t.false(out.timedOut);
  t.true(out.dirtyKb! >= 0 && out.writebackKb! >= 0);
});
