// The change-set listing, on tars made by the real tar from real files.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listedDirectories, listingDifferences, listingLines, withoutNoOpOpaqueMarkers } from '../harness/commit/layer-listing.js';
import { tempDir } from './helpers/cli.js';

function tarListing(make: (root: string) => void): string[] {
  const dir = tempDir('bg-listing-');
  try {
    const root = join(dir, 'root');
    mkdirSync(root);
    make(root);
    execFileSync('tar', ['-cf', join(dir, 'l.tar'), '-C', root, '.']);
    return listingLines(execFileSync('tar', ['-tv', '--numeric-owner', '-f', join(dir, 'l.tar')], { encoding: 'utf8' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a layer listing names each entry by type, size and path, whiteouts included, sorted', (t) => {
  const lines = tarListing((root) => {
    mkdirSync(join(root, 'random_files'));
    writeFileSync(join(root, 'random_files', 'file 1.bin'), Buffer.alloc(1024));
    writeFileSync(join(root, 'random_files', '.wh.file_2.bin'), '');
    symlinkSync('file 1.bin', join(root, 'random_files', 'link'));
  });
  t.deepEqual(lines, ['- 0 random_files/.wh.file_2.bin', '- 1024 random_files/file 1.bin', 'd 0 random_files', 'l 0 random_files/link'].sort());
});

test('listings that differ in one file size show that file on both sides', (t) => {
  const a = tarListing((root) => writeFileSync(join(root, 'f'), 'abc'));
  const b = tarListing((root) => writeFileSync(join(root, 'f'), 'abcd'));
  t.deepEqual(listingDifferences(a, b, ['naive', 'native']), ['only naive: - 3 f', 'only native: - 4 f']);
});

test('the listings of the same files made at different times are equal', (t) => {
  const make = (root: string) => writeFileSync(join(root, 'f'), 'same');
  const a = tarListing(make);
  execFileSync('sleep', ['1.1']);
  t.deepEqual(listingDifferences(a, tarListing(make), ['a', 'b']), []);
});

// Seen in CI: the native diff of an initial commit carried random_files/.wh..wh..opq on one run and not on others.
test('an opaque marker over a directory no lower layer has is dropped; over a lower directory it stays', (t) => {
  const layer = tarListing((root) => {
    mkdirSync(join(root, 'random_files'));
    writeFileSync(join(root, 'random_files', '.wh..wh..opq'), '');
    writeFileSync(join(root, 'random_files', 'file_1.bin'), 'x');
  });
  const naive = tarListing((root) => {
    mkdirSync(join(root, 'random_files'));
    writeFileSync(join(root, 'random_files', 'file_1.bin'), 'x');
  });
  const base = listedDirectories(tarListing((root) => mkdirSync(join(root, 'etc'))));
  t.deepEqual([...base], ['etc']);
  t.deepEqual(listingDifferences(withoutNoOpOpaqueMarkers(naive, base), withoutNoOpOpaqueMarkers(layer, base), ['naive', 'native']), []);
  const lowerWithDir = new Set([...base, 'random_files']);
  t.deepEqual(listingDifferences(withoutNoOpOpaqueMarkers(naive, lowerWithDir), withoutNoOpOpaqueMarkers(layer, lowerWithDir), ['naive', 'native']), [
    'only native: - 0 random_files/.wh..wh..opq',
  ]);
});

test("a base image's device nodes (tar -tv shows major,minor where the size goes) are listed with size 0, not refused", (t) => {
  const listing = listingLines(
    [
      'crw-rw-rw- 0/0             5,1 2023-11-14 22:13 ./dev/console',
      'crw-rw-rw- 0/0           1, 3 2023-11-14 22:13 ./dev/null',
      'brw-rw---- 0/6           7,  0 2023-11-14 22:13 ./dev/loop0',
      '-rw-r--r-- 0/0              12 2023-11-14 22:13 ./etc/hostname',
    ].join('\n'),
  );
  t.deepEqual(listing, ['- 12 etc/hostname', 'b 0 dev/loop0', 'c 0 dev/console', 'c 0 dev/null']);
});
