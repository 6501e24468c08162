// A made-up disk probe (harness/process/disk-probe.ts) of 256 MiB at the given
// write and read rates, read back after dropping the page cache: the tests of
// the disk section's rendering and of its cache-below rule share it.
import type { DiskProbe } from '../../harness/process/disk-probe.js';

export const probe = (writeMBps: number, readMBps: number): DiskProbe => ({
  state: 'ok',
  reason: null,
  dir: '/data',
  filesystem: 'ext4',
  startedAt: '2026-10-07T09:58:00.000Z',
  bytes: 256 * 1024 * 1024,
  writeMs: (256 * 1024 * 1024) / 1e3 / writeMBps,
  writeMBps,
  readMs: (256 * 1024 * 1024) / 1e3 / readMBps,
  readMBps,
  readMode: 'cache-dropped',
  residentBeforeReadBytes: 0,
  dirty: {
    dirtyRatio: 20,
    dirtyBackgroundRatio: 10,
    dirtyBytes: 0,
    dirtyBackgroundBytes: 0,
    dirtyExpireCentisecs: 3000,
    dirtyWritebackCentisecs: 500,
    dirtyKb: 1200,
    writebackKb: 0,
  },
});
