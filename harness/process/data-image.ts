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
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
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

/** What a failed command said: its stderr, else the error message. */
function failureText(e: unknown): string {
  return String((e as { stderr?: string }).stderr ?? (e as Error).message).trim();
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
    const fromBytes = statSync(image).size;
    const fd = openSync(image, 'r+');
    try {
      ftruncateSync(fd, wantBytes);
    } finally {
      closeSync(fd);
    }
    try {
      run('e2fsck', ['-f', '-p', image]);
      run('resize2fs', [image]);
      log(`data folder: grew the image ${image} from ${(fromBytes / GIB).toFixed(1)} to ${spec.size_gib} GiB`);
    } catch (e) {
      throw new UserError(
        `could not grow the data image ${image} to ${spec.size_gib} GiB: ${failureText(e)}`,
        { key: 'data.filesystem.size_gib' },
        'run e2fsck -f on the image and try again, or keep the size it had',
      );
    }
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
