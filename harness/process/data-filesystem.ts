// The file system a folder lives on, as the kernel's mount table gives it:
// type, mount options, and for ext4 whether it has a journal. The journal
// matters to a benchmark: without one, ext4 does not reuse an inode deleted in
// the last 60 s (300 s while its inode-table block is dirty; fs/ext4/ialloc.c,
// recently_deleted), so every file created after a large deletion scans past
// the deleted inodes, and one launch's teardown is billed to the next launch
// that creates many files (measured: reports/carryover-probe). The parsing is
// pure; `dataFilesystem` reads /proc.
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename } from 'node:path';

export interface MountEntry {
  mountPoint: string;
  fsType: string;
  source: string;
  /** The per-mount options and the super-block options, as the kernel lists them. */
  mountOptions: string;
  superOptions: string;
  /** Both lists merged, each option once. */
  options: string[];
}

export interface DataFilesystem extends MountEntry {
  /** ext4 only: true with a journal, false without one; null for other types or when unknown. */
  journal: boolean | null;
}

/** "\040" and the other octal escapes of /proc/self/mountinfo, undone. */
const unescape = (s: string): string => s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));

/** The entries of a /proc/self/mountinfo text (mount and super-block options merged). Pure. */
export function parseMountinfo(text: string): MountEntry[] {
  const out: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const l = left.split(' ');
    const r = right.split(' ');
    if (l.length < 6 || r.length < 3) continue;
    const options = [...l[5]!.split(','), ...r[2]!.split(',')].filter((o, i, all) => o !== '' && all.indexOf(o) === i);
    out.push({ mountPoint: unescape(l[4]!), fsType: r[0]!, source: unescape(r[1]!), mountOptions: l[5]!, superOptions: r[2]!, options });
  }
  return out;
}

/** The mount a (resolved) path is on: the last-mounted entry whose mount point is the longest prefix of it. Pure. */
export function mountEntryOf(entries: readonly MountEntry[], path: string): MountEntry | null {
  let best: MountEntry | null = null;
  for (const e of entries) {
    const inside = e.mountPoint === '/' || path === e.mountPoint || path.startsWith(e.mountPoint + '/');
    if (inside && (best === null || e.mountPoint.length >= best.mountPoint.length)) best = e;
  }
  return best;
}

/** Whether an ext4 mount has a journal, from the names in /proc/fs/jbd2 (one "<device>-<inode>" per journal in use). Pure. */
export function ext4Journal(entry: MountEntry, jbd2Names: readonly string[] | null): boolean | null {
  if (entry.fsType !== 'ext4' || jbd2Names === null) return null;
  if (entry.options.includes('noload')) return false;
  const device = basename(entry.source);
  return jbd2Names.some((n) => n.startsWith(`${device}-`));
}

/** "ext4 without a journal, mounted with discard" and the like; names what a reader of a benchmark needs. Pure. */
export function describeFilesystem(fs: DataFilesystem): string {
  const parts: string[] = [fs.fsType];
  if (fs.journal === false) parts.push('without a journal');
  if (fs.journal === true) parts.push('with a journal');
  if (fs.options.includes('discard')) parts.push(fs.journal === null ? 'mounted with discard' : 'and mounted with discard');
  return parts.join(' ');
}

/** Sentence for a file system on which deletions carry over to the next file creations, or null. Pure. */
export function deletionCarryoverRisk(fs: DataFilesystem, what: string): string | null {
  if (fs.fsType !== 'ext4' || fs.journal !== false) return null;
  return (
    `${what} is on ext4 without a journal (${fs.source} at ${fs.mountPoint}): ext4 then does not reuse an inode deleted in the last 60 s ` +
    '(300 s while its inode-table block is dirty), so a launch that creates many files right after another launch deleted many pays for the deletion'
  );
}

/** The file system of dir on this host; null when /proc/self/mountinfo cannot be read. */
export function dataFilesystem(dir: string): DataFilesystem | null {
  let text: string;
  let path: string;
  try {
    text = readFileSync('/proc/self/mountinfo', 'utf8');
    path = realpathSync(dir);
  } catch {
    return null;
  }
  const entry = mountEntryOf(parseMountinfo(text), path);
  if (!entry) return null;
  let jbd2: string[] | null;
  try {
    jbd2 = readdirSync('/proc/fs/jbd2');
  } catch {
    jbd2 = entry.fsType === 'ext4' ? [] : null; // no jbd2 folder at all: no ext4 journal is in use
  }
  return { ...entry, journal: ext4Journal(entry, jbd2) };
}
