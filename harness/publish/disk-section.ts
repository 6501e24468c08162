// The sessions' disk probes (process/disk-probe.ts) in every experiment's
// report: disk.csv, and a table of each session's figures with the
// experiment's own columns beside them, as an association only. Pure.
import type { SessionRecord } from '../contract/exchange-files.js';
import type { DiskProbe } from '../process/disk-probe.js';
import { csv, fixed } from './format-number.js';
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

const probeText = (p: DiskProbe): string =>
  p.state === 'ok'
    ? `${fixed(p.writeMBps!, 0)} / ${fixed(p.readMBps!, 0)}${p.readMode === 'cache-dropped' ? '' : ` (${p.readMode} read)`}`
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
  return [
    paragraph(
      `At each session's start and end the harness wrote ${fixed(first.bytes / 1024 / 1024, 0)} MiB to the data folder's file system (${first.filesystem}) with fsync, then read it back after dropping its pages from the page cache, in MB/s (10^6 bytes per second); disk.csv has every figure and the kernel's dirty-page settings ` +
        `(at the first probe: dirty_ratio ${first.dirty.dirtyRatio ?? '-'}, dirty_background_ratio ${first.dirty.dirtyBackgroundRatio ?? '-'}, dirty_expire_centisecs ${first.dirty.dirtyExpireCentisecs ?? '-'}).` +
        (beside.length && besideText
          ? ` ${besideText} This shows association only: with ${list.length} session${list.length === 1 ? '' : 's'} it cannot tell whether the disk made a session slow, or both followed something else.`
          : ''),
    ),
    table(
      ['session', 'attempt', 'write / read MB/s at start', 'at end', ...beside.map((c) => c.header)],
      list.map((r) => [String(r.session), String(r.attempt), probeText(r.disk.start), probeText(r.disk.end), ...beside.map((c) => c.valueOf(r.session))]),
    ),
  ];
}
