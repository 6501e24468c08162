// What the real paths need on a host (binaries, kernel file systems,
// /dev/fuse, root), each met or not with its remedy: `pipeline doctor` prints
// it, and a session job checks it on its node before it starts anything.
import { existsSync, readFileSync } from 'node:fs';
import { BINARIES, whichBinary } from './binary-pins.js';

import type { Requirement } from '../contract/requirement.js';

export type { Requirement };

/** Pure: which file systems /proc/filesystems lists. */
export function kernelFilesystems(text: string): Set<string> {
  return new Set(
    text
      .split('\n')
      .map((l) => l.trim().split(/\s+/).pop() ?? '')
      .filter(Boolean),
  );
}

export function requirements(): Requirement[] {
  const reqs: Requirement[] = [];
  const extra = [
    { name: 'unshare', debianPackage: 'util-linux' },
    { name: 'mountpoint', debianPackage: 'util-linux' },
    { name: 'fusermount3', debianPackage: 'fuse3' },
  ];
  for (const b of [...BINARIES, ...extra.map((e) => ({ ...e, versionArgs: null }))]) {
    const path = whichBinary(b.name, 'path' in b ? (b as { path?: string }).path : undefined);
    reqs.push({
      id: `binary-${b.name}`,
      part: `binary ${b.name}`,
      met: path !== null,
      detail: path ?? 'not found',
      remedy: 'remedy' in b && b.remedy ? b.remedy : `apt-get install -y ${b.debianPackage}`,
    });
  }
  let fs = new Set<string>();
  try {
    fs = kernelFilesystems(readFileSync('/proc/filesystems', 'utf8'));
  } catch {
    /* not Linux */
  }
  for (const [name, mod] of [
    ['erofs', 'erofs'],
    ['overlay', 'overlay'],
    ['fuse', 'fuse'],
  ] as const) {
    reqs.push({
      id: `fs-${name}`,
      part: `kernel file system ${name}`,
      met: fs.has(name),
      detail: fs.has(name) ? 'in /proc/filesystems' : 'not in /proc/filesystems',
      remedy: `modprobe ${mod}`,
    });
  }
  reqs.push({
    id: 'dev-fuse',
    part: '/dev/fuse',
    met: existsSync('/dev/fuse'),
    detail: existsSync('/dev/fuse') ? 'present' : 'missing',
    remedy: 'modprobe fuse',
  });
  const root = process.getuid?.() === 0;
  reqs.push({
    id: 'root',
    part: 'root',
    met: root,
    detail: root ? 'running as root' : `uid ${process.getuid?.() ?? '?'}`,
    remedy: 'run as root (mounts, dockerd and crun need it), e.g. sudo',
  });
  return reqs;
}

/** One line naming every unmet requirement and its remedy, or null when all are met. */
export function unmetRequirements(reqs: readonly Requirement[]): string | null {
  const missing = reqs.filter((r) => !r.met);
  return missing.length ? missing.map((r) => `${r.part}: ${r.detail}${r.remedy ? ` (${r.remedy})` : ''}`).join('; ') : null;
}
