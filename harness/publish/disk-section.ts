// The sessions' disk probes (process/disk-probe.ts) in every experiment's
// report: disk.csv, and a table of each session's figures with the
// experiment's own columns beside them, as an association only. Pure.
import type { SessionRecord } from '../contract/exchange-files.js';
import type { DiskProbe } from '../process/disk-probe.js';
import { csv, fixed } from './format-number.js';
import { median } from '../stats/quantile.js';
import { paragraph, table, type Block } from '../document/document-model.js';

type Probed = SessionRecord & { disk: { start: DiskProbe; end: DiskProbe } };
const probed = (records: readonly SessionRecord[] | null): Probed[] => (records ?? []).filter((r): r is Probed => !!r.disk);

export const diskColumns = [
  'session',
  'attempt',
  'moment',
  'state',
  'filesystem',
  'bytes',
  'write_ms',
  'write_mb_s',
  'read_ms',
  'read_mb_s',
  'read_mode',
  'resident_before_read_bytes',
  'dirty_ratio',
  'dirty_background_ratio',
  'dirty_bytes',
  'dirty_background_bytes',
  'dirty_expire_centisecs',
  'dirty_writeback_centisecs',
  'dirty_kb',
  'writeback_kb',
] as const;

/** disk.csv (schemas/report-disk.schema.json); null when no session recorded a probe. */
export function diskCsv(records: readonly SessionRecord[] | null): string | null {
  const list = probed(records);
  if (list.length === 0) return null;
  const n = (v: number | null, d: number): string | null => (v === null ? null : fixed(v, d));
  const rows = list.flatMap((r) =>
    (['start', 'end'] as const).map((moment) => {
      const p = r.disk[moment];
      return [
        r.session,
        r.attempt,
        moment,
        p.state,
        p.filesystem,
        p.bytes,
        n(p.writeMs, 1),
        n(p.writeMBps, 1),
        n(p.readMs, 1),
        n(p.readMBps, 1),
        p.readMode,
        p.residentBeforeReadBytes,
        p.dirty.dirtyRatio,
        p.dirty.dirtyBackgroundRatio,
        p.dirty.dirtyBytes,
        p.dirty.dirtyBackgroundBytes,
        p.dirty.dirtyExpireCentisecs,
        p.dirty.dirtyWritebackCentisecs,
        p.dirty.dirtyKb,
        p.dirty.writebackKb,
      ];
    }),
  );
  return csv(diskColumns, rows);
}

/**
 * How far above the run's median write (with fsync) a read after dropping the
 * guest's page cache may go before only a cache below the VM explains it. A
 * disk reads a file back at about the rate it wrote it (an SSD somewhat
 * faster); on these VMs reads of 4–8 GB/s came back beside writes of 0.3–1
 * GB/s. Held to the writes, not to the other reads: in one run most reads were
 * the host's cache, and a median of them hid it.
 */
export const CACHE_BELOW_FACTOR = 3;

/** The cache-dropped reads that ran above CACHE_BELOW_FACTOR × the run's median write: served by a cache below the VM. */
export function readsFromBelow(probes: readonly DiskProbe[]): Set<DiskProbe> {
  const ok = probes.filter((p) => p.state === 'ok');
  const writes = ok.map((p) => p.writeMBps).filter((v): v is number => v !== null);
  if (writes.length < 2) return new Set();
  const limit = CACHE_BELOW_FACTOR * median(writes);
  return new Set(ok.filter((p) => p.readMode === 'cache-dropped' && p.readMBps !== null && p.readMBps > limit));
}

const probeText = (p: DiskProbe, below: ReadonlySet<DiskProbe>): string =>
  p.state === 'ok'
    ? `${fixed(p.writeMBps!, 0)} / ${fixed(p.readMBps!, 0)}${p.readMode === 'cache-dropped' ? (below.has(p) ? ' (cache below the VM)' : '') : ` (${p.readMode} read)`}`
    : `skipped: ${p.reason}`;

/** A column set beside the probes: its header and each session's figure. */
export interface BesideColumn {
  header: string;
  valueOf: (session: number) => string;
}

/**
 * The disk probes of every experiment's sessions: a paragraph on what was
 * probed and a table of each session's figures, with the experiment's own
 * columns beside them (`beside`, `besideText` says what they are); nothing
 * when no session recorded a probe.
 */
export function diskProbeBlocks(records: readonly SessionRecord[] | null, beside: readonly BesideColumn[] = [], besideText: string | null = null): Block[] {
  const list = probed(records);
  if (list.length === 0) return [];
  const first = list[0]!.disk.start;
  const below = readsFromBelow(list.flatMap((r) => [r.disk.start, r.disk.end]));
  const reads = list.flatMap((r) => [r.disk.start, r.disk.end]).filter((p) => p.state === 'ok' && p.readMode === 'cache-dropped').length;
  return [
    paragraph(
      `At each session's start and end the harness wrote ${fixed(first.bytes / 1024 / 1024, 0)} MiB to the data folder's file system (${first.filesystem}) with fsync, then read it back after dropping its pages from the page cache, in MB/s (10^6 bytes per second); disk.csv has every figure and the kernel's dirty-page settings ` +
        `(at the first probe: dirty_ratio ${first.dirty.dirtyRatio ?? '-'}, dirty_background_ratio ${first.dirty.dirtyBackgroundRatio ?? '-'}, dirty_expire_centisecs ${first.dirty.dirtyExpireCentisecs ?? '-'}).` +
        (below.size
          ? ` ${below.size} of ${reads} reads ran above ×${CACHE_BELOW_FACTOR} the run's median write (marked "cache below the VM"): with the guest's pages dropped, only a cache below the VM delivers that, so those reads say nothing about the disk; the writes end with fsync.`
          : '') +
        (beside.length && besideText
          ? ` ${besideText} This shows association only: with ${list.length} session${list.length === 1 ? '' : 's'} it cannot tell whether the disk made a session slow, or both followed something else.`
          : ''),
    ),
    table(
      ['session', 'attempt', 'write / read MB/s at start', 'at end', ...beside.map((c) => c.header)],
      list.map((r) => [
        String(r.session),
        String(r.attempt),
        probeText(r.disk.start, below),
        probeText(r.disk.end, below),
        ...beside.map((c) => c.valueOf(r.session)),
      ]),
    ),
  ];
}
