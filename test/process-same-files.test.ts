// sameFiles (harness/process/same-files.ts) on real folders: what lets a no-op
// rerun leave a published report folder as it is. Any difference in names,
// bytes, modes or kinds answers false, so the caller copies.
import test from 'ava';
import { chmodSync, cpSync, mkdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sameFiles } from '../harness/process/same-files.js';
import { tempDir } from './helpers/cli.js';

function pair(): { a: string; b: string } {
  const root = tempDir('bg-same-files-');
  const a = join(root, 'a');
  const b = join(root, 'b');
  for (const d of [a, b]) {
    mkdirSync(join(d, 'plots'), { recursive: true });
    writeFileSync(join(d, 'report.md'), '# report\n');
    writeFileSync(join(d, 'plots', 'x.svg'), '<svg/>');
  }
  // a's files are 10 s older than any later write to b: their bytes are compared, never taken as copies by mtime
  const past = new Date(Date.now() - 10_000);
  for (const f of ['report.md', join('plots', 'x.svg')]) utimesSync(join(a, f), past, past);
  return { a, b };
}

test('two folders with the same names and bytes are the same, whatever the ignored archive in the target holds', (t) => {
  const { a, b } = pair();
  mkdirSync(join(b, 'runs', 'r1'), { recursive: true });
  writeFileSync(join(b, 'runs', 'r1', 'run.json'), '{}');
  t.true(sameFiles(a, b, ['runs']));
  t.false(sameFiles(a, b), 'not ignored, the archive is an extra name');
});

test('one changed byte, an extra file, a missing file, a changed mode or a symlink in place of a file is a difference', (t) => {
  const cases: [string, (b: string) => void][] = [
    ['a changed byte', (b) => writeFileSync(join(b, 'report.md'), '# rePort\n')],
    ['an extra file', (b) => writeFileSync(join(b, 'plots', 'y.svg'), '')],
    ['a changed mode', (b) => chmodSync(join(b, 'report.md'), 0o600)],
    [
      'a symlink',
      (b) => {
        writeFileSync(join(b, 'elsewhere.md'), '# report\n');
        symlinkSync(join(b, 'elsewhere.md'), join(b, 'plots', 'link.md'));
      },
    ],
  ];
  for (const [what, change] of cases) {
    const { a, b } = pair();
    change(b);
    t.false(sameFiles(a, b), what);
  }
  const { a, b } = pair();
  t.false(sameFiles(a, join(b, 'missing')), 'a missing target');
});

test('a copy that kept its timestamps is compared without reading its bytes; a changed byte with a new mtime still shows', (t) => {
  const { a } = pair();
  const b = join(tempDir('bg-same-files-'), 'b');
  cpSync(a, b, { recursive: true, preserveTimestamps: true });
  t.true(sameFiles(a, b));
  // the quick check, made visible: same size and the source's mtime, other bytes (no publisher writes this)
  writeFileSync(join(b, 'report.md'), '# REPORT\n');
  const m = statSync(join(a, 'report.md')).mtime;
  utimesSync(join(b, 'report.md'), m, m);
  t.true(sameFiles(a, b), 'taken as the copy by size, mode and mtime');
  // an edit: same size, a new mtime
  utimesSync(join(b, 'report.md'), new Date(), new Date(m.getTime() + 5000));
  t.false(sameFiles(a, b), 'the bytes are read and differ');
});
