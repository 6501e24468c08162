// Real gVisor, zswap and a swap file (root only; CI runs it as root): the
// scripts of sandbox-effects' zswap rows. A paused sandbox's compressible heap
// is pushed into zswap by a limit on its memory cgroup (held: the cgroup's
// memory plus zswap's pool, less than without reclaim), or to the row's swap
// file with zswap off (less held still, a slower touch back); every page is
// touched back after the thaw; and the row folder's sweep swaps the file off,
// puts zswap's parameter back and removes the cgroup.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openRowFolder, sandboxScriptsDir } from '../harness/sandbox/row-folder.js';
import { printedValues } from '../harness/sandbox/printed-values.js';
import { sandboxLeftovers } from './helpers/sandbox-leftovers.js';

const isRoot = process.getuid?.() === 0;
const canRun = isRoot && existsSync('/sys/module/zswap/parameters/enabled') && existsSync('/sys/fs/cgroup/memory/memory.limit_in_bytes');
const rootTest = canRun ? test : test.skip;
if (!canRun) console.warn('sandbox-zswap: skipped, needs root, runsc, zswap and the cgroup v1 memory controller; CI runs it as root');

const script = (name: string) => join(sandboxScriptsDir(), name);
// the rows' app with a 64 MiB heap: each page a quarter random bytes, the rest zeros
const APP = [
  'import os, signal, time',
  'page = 4096',
  'pages = (64 << 20) // page',
  "heap = bytearray(b''.join(os.urandom(1024) + bytes(3072) for _ in range(pages)))",
  'def touch(sig, frame):',
  '    t0 = time.perf_counter()',
  '    s = sum(heap[::page])',
  "    print('TOUCHED', s, round((time.perf_counter() - t0) * 1000, 1), flush=True)",
  'signal.signal(signal.SIGUSR1, touch)',
  "print('APP-READY', flush=True)",
  'while True:',
  '    signal.pause()',
].join('\n');

rootTest(
  'a paused sandbox reclaimed into zswap holds less than one not reclaimed, to disk less still, and the sweep undoes swap, zswap and the cgroup',
  (t) => {
    t.timeout(180_000);
    const param = '/sys/module/zswap/parameters/enabled';
    const before = readFileSync(param, 'utf8').trim();
    const folder = openRowFolder('test-zswap');
    try {
      execFileSync(script('swap-zswap.sh'), [folder.dir, '256']);
      t.regex(readFileSync('/proc/swaps', 'utf8'), new RegExp(`${folder.dir}/swapfile`));
      t.is(readFileSync(param, 'utf8').trim(), 'Y');
      // the host's own root as the sandbox's read-only root: its python3 runs the app
      execFileSync(script('gvisor-app-memcg.sh'), [folder.dir, 'app', '/', 'APP-READY', '120', '--', 'python3', '-c', APP]);
      const launch = (mode: string) => printedValues(execFileSync(script('zswap-touch.sh'), [folder.dir, 'app', mode, 'MARK'], { encoding: 'utf8' }));
      // the first reclaim after the app started leaves part of its heap behind (seen here: 60 of 84 MiB);
      // every later one reclaims it all, so the rows' warmup round takes that first cycle, and so does this test
      launch('disk');
      const none = launch('none');
      const zswap = launch('zswap');
      const disk = launch('disk');
      t.log(JSON.stringify({ none, zswap, disk }));
      t.true(none['held_mib']! >= 64, `not reclaimed, the heap is held: ${none['held_mib']} MiB`);
      t.true(zswap['zswap_pool_mib']! > 0, 'zswap holds the reclaimed pages, compressed');
      t.true(zswap['held_mib']! < none['held_mib']! - 32, `reclaimed into zswap: ${zswap['held_mib']} against ${none['held_mib']} MiB`);
      t.is(disk['zswap_pool_mib'], 0, 'with zswap off the pages go to the swap file');
      t.true(disk['held_mib']! < zswap['held_mib']!, 'on disk, less is held than in zswap');
      for (const v of [none, zswap, disk]) t.true(v['touch_ms']! > 0, 'every page was touched back after the thaw');
    } finally {
      execFileSync(script('gvisor-sweep.sh'), [folder.dir]);
    }
    t.notRegex(readFileSync('/proc/swaps', 'utf8'), new RegExp(`${folder.dir}/swapfile`), 'the swap file is off');
    t.is(readFileSync(param, 'utf8').trim(), before, "zswap's parameter is back");
    t.deepEqual(
      sandboxLeftovers(folder.dir).filter((l) => !/^folder /.test(l)),
      [],
    );
    return folder.close();
  },
);
