// Effects at the edge: the data folder on a file system of its own
// (`data.filesystem: { kind: ext4-image, size_gib }`). A sparse image file
// beside the folder (<data>.ext4) holds an ext4 file system with a journal,
// made by mkfs.ext4 on first use and loop-mounted at the data folder for one
// pipeline command; the undo unmounts it (the loop device goes with it). The
// image keeps the frozen outputs between commands, so a rerun reuses them as
// it would on a plain folder. Why: on ext4 without a journal a deleted
// unpacked image is billed to the next unpack (data-filesystem.ts,
// reports/carryover-probe), and a tool should not need the user to set up a
// loop device by hand to avoid that.
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readdirSync, rmSync, statSync, truncateSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UserError } from '../errors.js';
import { onCleanup } from './cleanup.js';
import { dataFilesystem, describeFilesystem } from './data-filesystem.js';
import { mountsUnder } from './mount-table.js';

const GIB = 1024 ** 3;

/** The image file of a data folder (resolved, no trailing slash). Pure. */
export function dataImageFile(dataDir: string): string {
  return `${dataDir.replace(/\/+$/, '')}.ext4`;
}

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** What a failed command said: its stderr and stdout (e2fsck -p reports on stdout alone), else the error message. */
function failureText(e: unknown): string {
  const said = [(e as { stderr?: string }).stderr, (e as { stdout?: string }).stdout].map((s) => String(s ?? '').trim()).filter(Boolean);
  return said.length ? said.join('\n') : (e as Error).message;
}

/** One file-system tool's outcome, as data: its exit code and everything it printed. */
interface ToolOutcome {
  command: string;
  code: number | null;
  output: string;
}

function runTool(command: string, args: string[]): ToolOutcome {
  const r = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [r.stderr, r.stdout]
    .map((s) => String(s ?? '').trim())
    .filter(Boolean)
    .join('\n');
  return { command, code: r.error ? null : r.status, output: r.error ? `${r.error.message}${output ? `\n${output}` : ''}` : output };
}

/** An outcome worded for an error: `e2fsck exited 4: <what it printed>`. Pure. */
function describeOutcome(o: ToolOutcome): string {
  return `${o.command} ${o.code === null ? 'could not start' : `exited ${o.code}`}: ${o.output || '(it printed nothing)'}`;
}

/**
 * The offline grow of an image file already extended to its new size: a forced
 * check, then resize2fs. e2fsck's exit codes 1 and 2 mean it fixed something
 * (a free-count in the super block a kernel left stale is the usual one) and
 * the file system is now consistent: the grow goes on and the caller logs what
 * was fixed. Returns what e2fsck fixed (null when nothing), or the failure worded with
 * both tools' output and whether resize2fs had run. Effects: the two tools.
 */
export function growImageFileSystem(image: string): { fixed: string | null } | { failure: string; resizeRan: boolean } {
  const check = runTool('e2fsck', ['-f', '-p', image]);
  if (check.code === null || check.code >= 4) return { failure: describeOutcome(check), resizeRan: false };
  const resize = runTool('resize2fs', [image]);
  if (resize.code !== 0) return { failure: `${describeOutcome(resize)}; before it, ${describeOutcome(check)}`, resizeRan: true };
  return { fixed: check.code === 0 ? null : check.output || `exit ${check.code}` };
}

/** The loop devices the image file is attached to (losetup -j); empty when none or losetup is missing. */
function loopDevicesOf(image: string): string[] {
  const r = runTool('losetup', ['--noheadings', '--output', 'NAME', '-j', image]);
  return r.code === 0
    ? r.output
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.startsWith('/dev/'))
    : [];
}

/** Waits (a short while) for the kernel to let go of the image: a loop device's autoclear after the last unmount runs asynchronously. */
function waitUntilDetached(image: string): string[] {
  const deadline = Date.now() + 5000;
  let attached = loopDevicesOf(image);
  while (attached.length && Date.now() < deadline) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    attached = loopDevicesOf(image);
  }
  return attached;
}

/** The backing file of the loop device mounted at dir, or null when dir is not a loop mount. */
function loopBackingFile(dir: string): string | null {
  const fs = dataFilesystem(dir);
  if (!fs || fs.mountPoint !== dir || !/^\/dev\/loop\d+$/.test(fs.source)) return null;
  try {
    return run('losetup', ['--noheadings', '--output', 'BACK-FILE', fs.source]).trim() || null;
  } catch {
    return null;
  }
}

function makeImage(image: string, sizeGib: number, log: (line: string) => void): void {
  mkdirSync(dirname(image), { recursive: true });
  const fd = openSync(image, 'wx');
  try {
    ftruncateSync(fd, sizeGib * GIB);
  } finally {
    closeSync(fd);
  }
  try {
    // -F: it is a regular file, not a block device; the default features include the journal.
    run('mkfs.ext4', ['-q', '-F', '-L', 'benchgraph-data', '-O', 'has_journal', image]);
  } catch (e) {
    unlinkSync(image);
    throw new UserError(
      `mkfs.ext4 could not make the data image ${image}: ${failureText(e)}`,
      { key: 'data.filesystem' },
      'install e2fsprogs, or remove data.filesystem and pass --data on a journaled file system',
    );
  }
  log(`data folder: made a ${sizeGib} GiB ext4 image with a journal, ${image} (sparse)`);
}

/**
 * Mounts the data folder's image at it when `data.filesystem` (spec) asks for one;
 * returns the undo (a no-op when nothing was asked, or when the image was
 * already mounted there by the command that started this one).
 */
export function mountDataImage(dataDir: string, spec: { size_gib: number } | undefined, log: (line: string) => void): () => Promise<void> {
  if (!spec) return async () => {};
  const image = dataImageFile(dataDir);
  if (existsSync(dataDir) && loopBackingFile(dataDir) === image) return async () => {}; // a Slurm session job under its runner
  if (process.getuid?.() !== 0)
    throw new UserError(
      `data.filesystem needs root to mount the data image ${image}`,
      { key: 'data.filesystem' },
      'run as root, or remove data.filesystem and pass --data on a journaled file system',
    );
  if (mountsUnder(dataDir).length)
    throw new UserError(
      `the data folder ${dataDir} has something else mounted at or under it: ${mountsUnder(dataDir).join(', ')}`,
      { key: 'data.filesystem' },
      'unmount it (a run that was killed may have left it), or pass another --data folder',
    );
  // a command that only read (status, run --dry-run) before the image existed may have left the code-digest cache
  // (derived, rebuilt on demand) in the bare folder: it is no reason to refuse the mount
  const cache = join(dataDir, 'cache');
  if (existsSync(dataDir) && readdirSync(dataDir).join() === 'cache' && readdirSync(cache).every((f) => f === 'code-digests.json'))
    rmSync(cache, { recursive: true, force: true });
  if (existsSync(dataDir) && readdirSync(dataDir).length)
    throw new UserError(
      `the data folder ${dataDir} already holds files outside its image ${image}; mounting the image would hide them`,
      { key: 'data.filesystem' },
      'move them away or pass another --data folder, or remove data.filesystem to keep using the folder as it is',
    );
  const wantBytes = spec.size_gib * GIB;
  if (!existsSync(image)) makeImage(image, spec.size_gib, log);
  else if (statSync(image).size < wantBytes) {
    // Grown in place, before the mount: resize2fs on the file (an online grow needs CAP_SYS_RESOURCE, which a container may lack), after the forced check it asks for.
    const attached = waitUntilDetached(image);
    if (attached.length)
      throw new UserError(
        `could not grow the data image ${image} to ${spec.size_gib} GiB: it is still attached to ${attached.join(', ')} (mounted, or a killed run left it)`,
        { key: 'data.filesystem.size_gib' },
        `unmount it and detach it (losetup -d ${attached[0]}), then try again, or keep the size it had`,
      );
    const fromBytes = statSync(image).size;
    const fd = openSync(image, 'r+');
    try {
      ftruncateSync(fd, wantBytes);
    } finally {
      closeSync(fd);
    }
    const grown = growImageFileSystem(image);
    if ('failure' in grown && !grown.resizeRan) truncateSync(image, fromBytes); // untouched by resize2fs: back to its size, so the next command tries the grow again
    if ('failure' in grown)
      throw new UserError(
        `could not grow the data image ${image} to ${spec.size_gib} GiB: ${grown.failure.replace(/\s*\n\s*/g, ' | ')}`,
        { key: 'data.filesystem.size_gib' },
        'run e2fsck -f on the image and try again, or keep the size it had',
      );
    if (grown.fixed) log(`data folder: e2fsck fixed the image ${image} before the grow: ${grown.fixed.replace(/\s*\n\s*/g, ' | ')}`);
    log(`data folder: grew the image ${image} from ${(fromBytes / GIB).toFixed(1)} to ${spec.size_gib} GiB`);
  } else if (statSync(image).size > wantBytes)
    log(
      `data folder: the image ${image} is ${(statSync(image).size / GIB).toFixed(1)} GiB, more than data.filesystem.size_gib (${spec.size_gib}); an image is never shrunk, it is used as it is (remove it to make a smaller one)`,
    );
  mkdirSync(dataDir, { recursive: true });
  try {
    run('mount', ['-o', 'loop', image, dataDir]);
  } catch (e) {
    throw new UserError(
      `could not mount the data image ${image} at ${dataDir}: ${failureText(e)}`,
      { key: 'data.filesystem' },
      'check that loop devices are available (losetup -f), or remove data.filesystem',
    );
  }
  const undo = onCleanup(`data image mounted at ${dataDir}`, () => {
    try {
      run('umount', [dataDir]);
    } catch {
      run('umount', ['-l', dataDir]); // a file still open (a DuckDB file at a signal): detached now, freed when it closes
    }
  });
  const fs = dataFilesystem(dataDir);
  log(`data folder ${dataDir}: ${fs ? describeFilesystem(fs) : 'ext4'} in ${image}`);
  return undo;
}
