// `pipeline doctor`: lists each requirement of the real paths (binaries,
// kernel file systems, /dev/fuse, root) as met or not, with the command that
// installs what is missing. Exit code 0 when all are met, 1 otherwise.
import { existsSync, readFileSync } from 'node:fs';
import { BINARIES, DEBIAN_PACKAGES, whichBinary } from '../artifacts/binary-pins.js';
import type { CliCommand } from './cli-command.js';
import { sandboxRequirements } from '../sandbox/sandbox-requirements.js';

export interface Requirement {
  name: string;
  met: boolean;
  detail: string;
  remedy: string;
}

/** Pure: which file systems /proc/filesystems lists. */
export function kernelFilesystems(text: string): Set<string> {
  return new Set(text.split('\n').map((l) => l.trim().split(/\s+/).pop() ?? '').filter(Boolean));
}

export function requirements(): Requirement[] {
  const reqs: Requirement[] = [];
  const extra = [{ name: 'unshare', debianPackage: 'util-linux' }, { name: 'mountpoint', debianPackage: 'util-linux' }, { name: 'fusermount3', debianPackage: 'fuse3' }];
  for (const b of [...BINARIES, ...extra.map((e) => ({ ...e, versionArgs: null }))]) {
    const path = whichBinary(b.name, 'path' in b ? (b as { path?: string }).path : undefined);
    reqs.push({ name: `binary ${b.name}`, met: path !== null, detail: path ?? 'not found', remedy: `apt-get install -y ${b.debianPackage}` });
  }
  let fs = new Set<string>();
  try {
    fs = kernelFilesystems(readFileSync('/proc/filesystems', 'utf8'));
  } catch {
    /* not Linux */
  }
  for (const [name, mod] of [['erofs', 'erofs'], ['overlay', 'overlay'], ['fuse', 'fuse']] as const) {
    reqs.push({ name: `kernel file system ${name}`, met: fs.has(name), detail: fs.has(name) ? 'in /proc/filesystems' : 'not in /proc/filesystems', remedy: `modprobe ${mod}` });
  }
  reqs.push({ name: '/dev/fuse', met: existsSync('/dev/fuse'), detail: existsSync('/dev/fuse') ? 'present' : 'missing', remedy: 'modprobe fuse' });
  const root = process.getuid?.() === 0;
  reqs.push({ name: 'root', met: root, detail: root ? 'running as root' : `uid ${process.getuid?.() ?? '?'}`, remedy: 'run as root (mounts, dockerd and crun need it), e.g. sudo' });
  return reqs;
}

export const doctorCommand: CliCommand = {
  summary: 'list requirements of the real paths and whether they are met',
  usage: 'pipeline doctor [--quiet]',
  about: 'Lists each requirement of the real paths (binaries, kernel file systems, /dev/fuse, root) as met\nor not, with the command that installs what is missing. Exit 0 when all are met, 1 otherwise.',
  flags: { quiet: { kind: 'boolean', help: 'do not print the apt-get line of the missing packages' } },
  run: async ({ flags }) => {
    const reqs = requirements();
    const width = Math.max(...reqs.map((r) => r.name.length));
    for (const r of reqs) {
      process.stdout.write(`${r.met ? 'ok     ' : 'MISSING'} ${r.name.padEnd(width)}  ${r.detail}${r.met ? '' : `  -> ${r.remedy}`}\n`);
    }
    // Parts of effect rows: informational; a row missing one is reported as not runnable, never an error.
    process.stdout.write('\nparts of effect rows (pipelines/sandbox-effects.yaml lists a row that needs an absent one as not runnable here):\n');
    for (const r of sandboxRequirements()) process.stdout.write(`${r.met ? 'ok     ' : 'absent '} ${r.id.padEnd(width)}  ${r.part}: ${r.detail}\n`);
    const missing = reqs.filter((r) => !r.met);
    if (missing.length === 0) {
      process.stdout.write('all requirements of the real paths are met\n');
      return 0;
    }
    if (flags['quiet'] !== true) {
      process.stdout.write(`\n${missing.length} requirement(s) missing. Debian packages of the real paths:\n  apt-get update && apt-get install -y ${DEBIAN_PACKAGES.join(' ')}\n`);
    }
    return 1;
  },
};
