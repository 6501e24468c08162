// The data folder's file system from the mount table: the made-up mountinfo
// lines test the parser (our own logic), and two real loop-mounted ext4 file
// systems, one made with a journal and one without, test the journal check
// the doctor warning and the report's provenance rest on (root only).
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { dataFilesystem, deletionCarryoverRisk, describeFilesystem, ext4Journal, mountEntryOf, parseMountinfo } from '../harness/process/data-filesystem.js';
import { tempDir } from './helpers/cli.js';

const madeUp = [
  '22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard,resv_strict',
  '30 22 0:26 / /work/data rw,nosuid master:7 - tmpfs tmpfs rw,size=1024k',
  '31 22 7:0 / /mnt/with\\040space rw,relatime - ext4 /dev/loop0 rw,relatime',
].join('\n');

test('made-up mountinfo: the longest mount point holding the path wins, escapes are undone, both option lists merge', (t) => {
  const entries = parseMountinfo(madeUp);
  t.is(entries.length, 3);
  t.is(mountEntryOf(entries, '/work/data/x')?.fsType, 'tmpfs');
  t.is(mountEntryOf(entries, '/work/database')?.mountPoint, '/');
  const spaced = mountEntryOf(entries, '/mnt/with space/a');
  t.is(spaced?.source, '/dev/loop0');
  t.deepEqual(mountEntryOf(entries, '/')?.options, ['rw', 'relatime', 'discard', 'resv_strict']);
});

test('made-up jbd2 names: an ext4 mount has a journal only when /proc/fs/jbd2 lists its device; other file systems have no answer', (t) => {
  const [root, tmp, loop] = parseMountinfo(madeUp);
  t.false(ext4Journal(root!, ['loop0-8']));
  t.true(ext4Journal(loop!, ['loop0-8']));
  t.is(ext4Journal(tmp!, ['loop0-8']), null);
  const noJournal = { ...root!, journal: false };
  t.is(describeFilesystem(noJournal), 'ext4 without a journal and mounted with discard');
  t.regex(deletionCarryoverRisk(noJournal, 'the data folder') ?? '', /^the data folder is on ext4 without a journal \(\/dev\/vda at \/\): .*60 s/);
  t.is(deletionCarryoverRisk({ ...loop!, journal: true }, 'the data folder'), null);
});

const root = process.getuid?.() === 0;

(root ? test.serial : test.skip)(
  'real loop-mounted ext4: made with a journal it has one, made with -O ^has_journal it has none, and only the second is a carryover risk',
  (t) => {
    const dir = tempDir('benchgraph-fs-test-');
    const mounted: string[] = [];
    try {
      const make = (name: string, extra: string[]): string => {
        const img = join(dir, `${name}.img`);
        const mnt = join(dir, name);
        mkdirSync(mnt);
        execFileSync('truncate', ['-s', '64M', img]);
        execFileSync('mkfs.ext4', ['-q', '-F', ...extra, img]);
        execFileSync('mount', ['-o', 'loop', img, mnt]);
        mounted.push(mnt);
        mkdirSync(join(mnt, 'data'));
        return join(mnt, 'data');
      };
      const withJournal = dataFilesystem(make('journal', []));
      const without = dataFilesystem(make('nojournal', ['-O', '^has_journal']));
      t.is(withJournal?.fsType, 'ext4');
      t.true(withJournal?.journal);
      t.false(without?.journal);
      t.is(deletionCarryoverRisk(withJournal!, 'x'), null);
      t.truthy(deletionCarryoverRisk(without!, 'x'));
      t.regex(without!.source, /^\/dev\/loop\d+$/);
    } finally {
      for (const m of mounted.reverse()) execFileSync('umount', [m]);
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
