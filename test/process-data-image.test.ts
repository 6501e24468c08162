// data.filesystem (harness/process/data-image.ts) on real parts (root only; CI
// runs it as root): a smoke pipeline whose data folder is a loop-mounted ext4
// image with a journal. The image is made on first use, mounted for each
// command and unmounted after it (on SIGINT too); the frozen outputs live in
// it, so a rerun reuses them; a folder that already holds files is refused.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../harness/errors.js';
import { dataImageFile, mountDataImage } from '../harness/process/data-image.js';
import { mountsUnder } from '../harness/process/mount-table.js';
import { projectRoot, runCli, startCli, tempDir } from './helpers/cli.js';

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test.serial : test.skip;
if (!isRoot) console.warn('process-data-image: skipped, needs root; CI runs it as root');

/** The ext4 file system's size in an image, from its super block (dumpe2fs -h). */
function fileSystemBytes(image: string): number {
  const header = execFileSync('dumpe2fs', ['-h', image], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(header)?.[1]);
  return field('Block count') * field('Block size');
}

const SMALL = ['--set', 'design.rounds=2', '--set', 'design.sessions=1', '--set', 'design.warmup_rounds=1'];

function pipelineDir(sizeGib: number | string): string {
  const dir = tempDir('bg-data-image-');
  const smoke = readFileSync(join(projectRoot, 'pipelines', 'smoke.yaml'), 'utf8');
  writeFileSync(join(dir, 'pipeline.yaml'), `${smoke}\ndata:\n  filesystem:\n    kind: ext4-image\n    size_gib: ${sizeGib}\n`);
  return dir;
}

rootTest(
  'a run on an ext4 image: made, mounted with a journal for the run, unmounted after it, and a rerun reuses every stage from it, and a larger size grows it in place',
  async (t) => {
    const dir = pipelineDir(1);
    try {
      const first = await runCli(['run', ...SMALL], dir);
      t.is(first.code, 0, first.stderr.slice(-1500));
      t.regex(first.stderr, /made a 1 GiB ext4 image with a journal/);
      t.regex(first.stderr, /data folder \S+\/\.data: ext4 with a journal in \S+\/\.data\.ext4/);
      t.deepEqual(mountsUnder(dir), [], 'the image is unmounted after the run');
      t.deepEqual(readdirSync(join(dir, '.data')), [], 'nothing is written beside the image');
      t.true(existsSync(join(dir, '.data.ext4')));
      const provenance = readFileSync(join(dir, 'reports', 'smoke', 'provenance.csv'), 'utf8');
      t.regex(provenance, /^host,data_filesystem,ext4 with a journal,/m);
      const again = await runCli(['run', ...SMALL], dir);
      t.is(again.code, 0, again.stderr.slice(-1500));
      t.regex(again.stdout, /done: 0 ran, \d+ reused/);
      t.notRegex(again.stderr, /made a/, 'the image is made once');
      const audit = await runCli(['audit', ...SMALL], dir);
      t.is(audit.code, 0, audit.stdout + audit.stderr);
      t.deepEqual(mountsUnder(dir), []);
      // A larger size_gib grows the image and its file system in place; the frozen outputs stay.
      const file = join(dir, 'pipeline.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('size_gib: 1', 'size_gib: 2'));
      const grown = await runCli(['run', ...SMALL], dir);
      t.is(grown.code, 0, grown.stderr.slice(-1500));
      t.regex(grown.stderr, /grew the image \S+ from 1\.0 to 2 GiB/);
      t.regex(grown.stdout, /done: 0 ran, \d+ reused/);
      t.is(fileSystemBytes(join(dir, '.data.ext4')), 2 * 1024 ** 3);
    } finally {
      if (mountsUnder(dir).length === 0) rmSync(dir, { recursive: true, force: true });
    }
  },
);

rootTest('SIGINT during sampling on the image leaves it unmounted', async (t) => {
  const dir = pipelineDir(1);
  try {
    const child = startCli(['run', ...SMALL], dir);
    let stderr = '';
    child.stderr!.on('data', (b: Buffer) => {
      stderr += b.toString();
      if (/▶ sample \(sample\) running/.test(stderr)) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    t.is(code, 130, stderr.slice(-1500));
    t.deepEqual(mountsUnder(dir), []);
  } finally {
    if (mountsUnder(dir).length === 0) rmSync(dir, { recursive: true, force: true });
  }
});

rootTest('a data folder that already holds files is refused with exit 2 naming data.filesystem, and is left as it was', async (t) => {
  const dir = pipelineDir(1);
  try {
    mkdirSync(join(dir, '.data'));
    writeFileSync(join(dir, '.data', 'keep.txt'), 'mine\n');
    const r = await runCli(['run', ...SMALL], dir);
    t.is(r.code, 2);
    t.regex(r.stderr, /^error: pipeline\.yaml: data\.filesystem: /m, 'the error names the pipeline file it read the setting from');
    t.regex(r.stderr, /already holds files outside its image/);
    t.notRegex(r.stderr, /\n\s+at /, 'no stack trace');
    t.deepEqual(readdirSync(join(dir, '.data')), ['keep.txt']);
    t.false(existsSync(join(dir, '.data.ext4')), 'no image is made');
    t.deepEqual(mountsUnder(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

rootTest('status and run --dry-run before the first run make no data image, say so, and leave nothing that stops the run from mounting one', async (t) => {
  const dir = pipelineDir(1);
  try {
    const status = await runCli(['status'], dir);
    t.is(status.code, 0, status.stderr);
    t.regex(status.stderr, /no data image \(.*\.data\.ext4\) yet, so nothing of pipeline\.yaml is frozen there/);
    t.regex(status.stderr, /status of pipeline\.yaml in .*\.data/);
    const dry = await runCli(['run', '--dry-run', ...SMALL], dir);
    t.is(dry.code, 0, dry.stderr);
    t.false(existsSync(join(dir, '.data.ext4')), 'no image is made by a command that only reads');
    const r = await runCli(['run', ...SMALL], dir);
    t.is(r.code, 0, r.stderr);
    t.true(existsSync(join(dir, '.data.ext4')));
    t.deepEqual(mountsUnder(dir), []);
  } finally {
    if (mountsUnder(dir).length === 0) rmSync(dir, { recursive: true, force: true });
  }
});

/** A 1 GiB image made as the tool makes it, beside a fresh data folder; `damage` is a debugfs request written into it. */
function imageDir(damage: string): { dir: string; dataDir: string; image: string } {
  const dir = tempDir('bg-data-grow-');
  const dataDir = join(dir, '.data');
  const image = dataImageFile(dataDir);
  execFileSync('truncate', ['-s', '1G', image]);
  execFileSync('mkfs.ext4', ['-q', '-F', '-L', 'benchgraph-data', '-O', 'has_journal', image]);
  execFileSync('debugfs', ['-w', '-R', damage, image], { stdio: 'ignore' });
  return { dir, dataDir, image };
}

rootTest(
  'a grow whose forced check fixes a stale free-block count (e2fsck exit 1, output on stdout only) still grows the image and logs the fix',
  async (t) => {
    const { dir, dataDir, image } = imageDir('ssv free_blocks_count 100');
    const lines: string[] = [];
    try {
      const undo = mountDataImage(dataDir, { size_gib: 2 }, (l) => lines.push(l));
      await undo();
      t.regex(lines.join('\n'), /e2fsck fixed the image \S+ before the grow: \S/);
      t.regex(lines.join('\n'), /grew the image \S+ from 1\.0 to 2 GiB/);
      t.is(fileSystemBytes(image), 2 * 1024 ** 3);
      t.deepEqual(mountsUnder(dir), []);
    } finally {
      if (mountsUnder(dir).length === 0) rmSync(dir, { recursive: true, force: true });
    }
  },
);

rootTest('a grow that e2fsck refuses is a user error carrying what e2fsck printed on stdout and stderr, and leaves the image at its size', (t) => {
  const { dir, dataDir, image } = imageDir('clri <2>');
  try {
    const e = t.throws(() => mountDataImage(dataDir, { size_gib: 2 }, () => {}), { instanceOf: UserError });
    t.regex(e!.message, /could not grow the data image \S+ to 2 GiB: e2fsck exited 4: /);
    t.regex(e!.message, /Root inode is not a directory/, 'what e2fsck said on stdout');
    t.regex(e!.message, /UNEXPECTED INCONSISTENCY/, 'what e2fsck said on stderr');
    t.notRegex(e!.message, /\n/, 'one line');
    t.is(statSync(image).size, 1024 ** 3, 'the next command tries the grow again');
    t.deepEqual(mountsUnder(dir), []);
  } finally {
    if (mountsUnder(dir).length === 0) rmSync(dir, { recursive: true, force: true });
  }
});

test('a size of 0 GiB is a user error naming the file, line and key', async (t) => {
  const dir = pipelineDir(0);
  try {
    const r = await runCli(['run', '--dry-run'], dir);
    t.is(r.code, 2);
    t.regex(r.stderr, /pipeline\.yaml:\d+/);
    t.regex(r.stderr, /data\.filesystem\.size_gib/);
    t.false(existsSync(join(dir, '.data.ext4')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
