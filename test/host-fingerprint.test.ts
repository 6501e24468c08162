import test from 'ava';
import { cpuinfoField, isolcpusOf, journalOf, mountOf, stealOf } from '../harness/process/host-fingerprint.js';
import { fingerprintChanges } from '../harness/process/fingerprint-diff.js';

test('the first model name and microcode are read from /proc/cpuinfo text', (t) => {
  const text = 'processor\t: 0\nmodel name\t: AMD EPYC 7B13\nmicrocode\t: 0xa0011d1\n\nprocessor\t: 1\nmodel name\t: other\n';
  t.is(cpuinfoField(text, 'model name'), 'AMD EPYC 7B13');
  t.is(cpuinfoField(text, 'microcode'), '0xa0011d1');
  t.is(cpuinfoField(text, 'flags'), null);
});

test('isolcpus is read from the kernel command line, empty when absent', (t) => {
  t.is(isolcpusOf('quiet isolcpus=2-3 nohz_full=2-3'), '2-3');
  t.is(isolcpusOf('isolcpus=1'), '1');
  t.is(isolcpusOf('quiet splash'), '');
});

test('the data folder’s mount is the longest mount point above it, with its file system and options', (t) => {
  const mountinfo = [
    '22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard',
    '30 22 0:40 / /work/fast rw,nosuid shared:5 - tmpfs tmpfs rw,size=1024k',
    '31 22 0:41 / /work/fastx rw shared:6 - xfs /dev/vdb rw',
  ].join('\n');
  t.deepEqual(mountOf(mountinfo, '/work/fast/data'), { fsType: 'tmpfs', options: 'rw,nosuid,rw,size=1024k' });
  t.deepEqual(mountOf(mountinfo, '/work/data'), { fsType: 'ext4', options: 'rw,relatime,rw,discard' });
});

test('steal counts as present from 1% of CPU time, and as unknown when it was not measured', (t) => {
  t.is(stealOf(0.01), 'present');
  t.is(stealOf(0.009), 'none');
  t.is(stealOf(null), 'unknown');
});

test('the fingerprint says whether the data folder’s ext4 has a journal, from the names in /proc/fs/jbd2', (t) => {
  const mountinfo = ['22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard', '40 22 7:0 / /work/data rw,relatime shared:9 - ext4 /dev/loop0 rw'].join(
    '\n',
  );
  t.is(journalOf(mountinfo, '/work/data/stages', ['loop0-8']), 'journal');
  t.is(journalOf(mountinfo, '/work/other', ['loop0-8']), 'no journal');
  t.is(journalOf(mountinfo, '/work/other', null), 'unknown');
  t.is(journalOf('22 1 0:40 / / rw - tmpfs tmpfs rw', '/x', []), 'unknown');
});

test('a data folder that gained a journal is named in words, instead of its mount option strings, even beside a host change', (t) => {
  const before = { cpuModel: 'Intel(R) Xeon(R) Processor', dataFsType: 'ext4', dataMountOptions: 'rw,relatime,rw,discard', dataJournal: 'no journal' as const };
  const after = { cpuModel: 'AMD EPYC', dataFsType: 'ext4', dataMountOptions: 'rw,relatime,rw', dataJournal: 'journal' as const };
  t.deepEqual(fingerprintChanges(before, after), [
    { field: 'data folder', before: 'ext4 without a journal', after: 'ext4 with a journal' },
    { field: 'cpuModel', before: 'Intel(R) Xeon(R) Processor', after: 'AMD EPYC' },
  ]);
  // a record from before the field: the mount options are all there is to show
  const { dataJournal: _, ...old } = before;
  t.deepEqual(
    fingerprintChanges(old, after).map((c) => c.field),
    ['cpuModel', 'dataMountOptions'],
  );
});
