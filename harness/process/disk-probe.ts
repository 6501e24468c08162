// A disk probe of the file system that holds a folder (issue 18 item 5):
// sequential write with fsync and sequential read, in MB/s (10^6 bytes per
// second), bounded in size, plus the kernel's dirty-page settings. Recorded
// with the host noise at a session's start and end, so a report can set cold
// full-pull cells (which unpack hundreds of MB) beside the disk they ran on.
//
// What it measures:
// - write: open a new file in the folder, write `bytes` in 1 MiB chunks of
//   random data (each chunk distinct, so neither compression nor dedup can
//   shorten it), fsync, close. Timed from open to the end of the fsync.
// - read: first the file's pages are dropped from the page cache with
//   posix_fadvise(POSIX_FADV_DONTNEED), which Node does not expose, through
//   GNU dd (`dd if=FILE iflag=nocache count=0`); the pages are clean after the
//   fsync, so the kernel can drop them. util-linux `fincore` then reports how
//   many of the file's bytes are still resident. The file is read back in 1 MiB
//   chunks, through the page cache with the kernel's readahead, as a pull reads
//   a layer. readMode is 'cache-dropped' when at most 1% of the file was
//   resident before the read, 'cached' when more was (then the figure is
//   mostly a memory read and says little of the disk), 'unverified' when
//   fincore did not answer.
// - dirty: /proc/sys/vm/dirty_* and the Dirty and Writeback kB of
//   /proc/meminfo when the probe starts.
// On a virtual machine the host may cache the virtual disk, so the figures are
// what the guest sees, not the device: on the project's 2-vCPU VM (ext4 on
// virtio), three 256 MiB probes in a row gave 1044-1233 MB/s write with fsync
// and 458-1622 MB/s read after the drop, at a load average of about 13.
// The probe file is removed on every exit (finally, and by the cleanup stack
// on SIGINT/SIGTERM). It is skipped, not run, when the file system has less
// than twice `bytes` free.
import { randomFillSync } from 'node:crypto';
import { readFileSync, rmSync, statfsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { onCleanup } from './cleanup.js';
import { runUntimed } from './untimed-command.js';

export const defaultProbeBytes = 256 * 1024 * 1024;
const chunkBytes = 1024 * 1024;
const minProbeBytes = chunkBytes;
const maxProbeBytes = 1024 * 1024 * 1024;

/** /proc/sys/vm/dirty_* (null when unreadable) and the dirty memory at the probe's start. */
export interface DirtySettings {
  dirtyRatio: number | null;
  dirtyBackgroundRatio: number | null;
  dirtyBytes: number | null;
  dirtyBackgroundBytes: number | null;
  dirtyExpireCentisecs: number | null;
  dirtyWritebackCentisecs: number | null;
  /** /proc/meminfo Dirty and Writeback when the probe started, kB. */
  dirtyKb: number | null;
  writebackKb: number | null;
}

export interface DiskProbe {
  state: 'ok' | 'skipped';
  /** Why a skipped probe did not run. */
  reason: string | null;
  dir: string;
  /** File system type of dir (from statfs), e.g. ext4, xfs, tmpfs; 'unknown' for another magic number. */
  filesystem: string;
  startedAt: string;
  bytes: number;
  writeMs: number | null;
  writeMBps: number | null;
  readMs: number | null;
  readMBps: number | null;
  /** 'unverified': fincore did not answer, so whether the drop worked is unknown. */
  readMode: 'cache-dropped' | 'cached' | 'unverified' | null;
  /** Bytes of the probe file in the page cache just before the read (fincore); null when fincore did not answer. */
  residentBeforeReadBytes: number | null;
  dirty: DirtySettings;
}

const magic: Record<number, string> = {
  0xef53: 'ext4',
  0x58465342: 'xfs',
  0x9123683e: 'btrfs',
  0x01021994: 'tmpfs',
  0x794c7630: 'overlay',
  0x2fc12fc1: 'zfs',
  0x6969: 'nfs',
  0x65735546: 'fuse',
};

function readNumber(file: string): number | null {
  try {
    const v = Number(readFileSync(file, 'utf8').trim());
    return Number.isFinite(v) ? v : null;
  } catch {
    return null;
  }
}

/** Dirty and Writeback of a /proc/meminfo text, kB. Pure. */
export function dirtyMemoryKb(meminfo: string): { dirtyKb: number | null; writebackKb: number | null } {
  const field = (name: string): number | null => {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(meminfo);
    return m ? Number(m[1]) : null;
  };
  return { dirtyKb: field('Dirty'), writebackKb: field('Writeback') };
}

export function readDirtySettings(): DirtySettings {
  const vm = (name: string): number | null => readNumber(`/proc/sys/vm/${name}`);
  let memory: { dirtyKb: number | null; writebackKb: number | null } = { dirtyKb: null, writebackKb: null };
  try {
    memory = dirtyMemoryKb(readFileSync('/proc/meminfo', 'utf8'));
  } catch {
    // not Linux: leave them unknown
  }
  return {
    dirtyRatio: vm('dirty_ratio'),
    dirtyBackgroundRatio: vm('dirty_background_ratio'),
    dirtyBytes: vm('dirty_bytes'),
    dirtyBackgroundBytes: vm('dirty_background_bytes'),
    dirtyExpireCentisecs: vm('dirty_expire_centisecs'),
    dirtyWritebackCentisecs: vm('dirty_writeback_centisecs'),
    ...memory,
  };
}

/** MB/s, 10^6 bytes per second. */
const mbps = (bytes: number, ms: number): number => bytes / 1e6 / (ms / 1000);

async function residentBytes(file: string): Promise<number | null> {
  try {
    const stdout = await runUntimed('fincore', ['--bytes', '--noheadings', '--raw', '--output', 'RES', file]);
    const v = Number(stdout.trim());
    return Number.isFinite(v) ? v : null;
  } catch {
    return null;
  }
}

/** Measures the file system of `dir` (which must exist); never leaves its probe file behind. */
export async function probeDisk(dir: string, bytes = defaultProbeBytes): Promise<DiskProbe> {
  if (!Number.isInteger(bytes) || bytes < minProbeBytes || bytes > maxProbeBytes) {
    throw new Error(`probeDisk: bytes must be an integer in [${minProbeBytes}, ${maxProbeBytes}], got ${bytes}`);
  }
  const size = Math.ceil(bytes / chunkBytes) * chunkBytes;
  const fs = statfsSync(dir);
  const base = {
    dir,
    filesystem: magic[fs.type] ?? 'unknown',
    startedAt: new Date().toISOString(),
    bytes: size,
    dirty: readDirtySettings(),
  };
  const none = { writeMs: null, writeMBps: null, readMs: null, readMBps: null, readMode: null, residentBeforeReadBytes: null };
  const freeBytes = fs.bavail * fs.bsize;
  if (freeBytes < 2 * size) {
    return { state: 'skipped', reason: `${freeBytes} bytes free, the probe needs twice its ${size}`, ...base, ...none };
  }
  const file = join(dir, `.benchgraph-disk-probe-${process.pid}-${Date.now()}`);
  const remove = (): void => rmSync(file, { force: true });
  const undo = onCleanup(`disk probe file ${file}`, remove);
  try {
    const chunk = Buffer.alloc(chunkBytes);
    randomFillSync(chunk);
    const writeStart = performance.now();
    const out = await open(file, 'wx', 0o600);
    try {
      for (let i = 0; i < size / chunkBytes; i++) {
        chunk.writeUInt32LE(i, 0); // each chunk distinct
        await out.write(chunk, 0, chunkBytes);
      }
      await out.sync();
    } finally {
      await out.close();
    }
    const writeMs = performance.now() - writeStart;

    // a dd without nocache (not GNU) fails here; fincore then shows the pages resident
    await runUntimed('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']).catch(() => undefined);
    const resident = await residentBytes(file);
    const readStart = performance.now();
    const input = await open(file, 'r');
    let total = 0;
    try {
      for (;;) {
        const { bytesRead } = await input.read(chunk, 0, chunkBytes, null);
        if (bytesRead === 0) break;
        total += bytesRead;
      }
    } finally {
      await input.close();
    }
    const readMs = performance.now() - readStart;
    if (total !== size) throw new Error(`probeDisk: read ${total} bytes of ${size} back from ${file}`);
    return {
      state: 'ok',
      reason: null,
      ...base,
      writeMs,
      writeMBps: mbps(size, writeMs),
      readMs,
      readMBps: mbps(size, readMs),
      readMode: resident === null ? 'unverified' : resident <= 0.01 * size ? 'cache-dropped' : 'cached',
      residentBeforeReadBytes: resident,
    };
  } finally {
    await undo();
  }
}
