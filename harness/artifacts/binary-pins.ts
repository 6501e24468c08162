// Effects: the version and sha256 of every binary a path runs, and the kernel.
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative } from 'node:path';
import { release } from 'node:os';
import { sha256File } from '../digest/sha256.js';
import { UserError } from '../errors.js';
import { harnessDir, projectRoot } from '../process/project-root.js';

export interface BinarySpec {
  name: string;
  /** Absolute path to prefer (e.g. the Debian docker CLI), else looked up on PATH. */
  path?: string;
  /** How to get it when it is not a Debian package's own binary (built by setup.sh); default: apt-get install of debianPackage. */
  remedy?: string;
  versionArgs: string[] | null;
  debianPackage: string;
}

import type { BinaryPin } from '../contract/exchange-files.js';
export type { BinaryPin };

export const BINARIES: BinarySpec[] = [
  { name: 'dockerd', versionArgs: ['--version'], debianPackage: 'docker.io' },
  { name: 'containerd', versionArgs: ['--version'], debianPackage: 'containerd' },
  { name: 'runc', versionArgs: ['--version'], debianPackage: 'runc' },
  { name: 'docker', path: '/usr/bin/docker', versionArgs: ['--version'], debianPackage: 'docker.io' },
  { name: 'docker-registry', versionArgs: ['--version'], debianPackage: 'docker-registry' },
  { name: 'rclone', versionArgs: ['version'], debianPackage: 'rclone' },
  { name: 'crun', versionArgs: ['--version'], debianPackage: 'crun' },
  { name: 'mkfs.erofs', versionArgs: null, debianPackage: 'erofs-utils' },
  { name: 'nginx', versionArgs: ['-v'], debianPackage: 'nginx-light' },
  { name: 'mmdebstrap', versionArgs: ['--version'], debianPackage: 'mmdebstrap' },
  { name: 'skopeo', versionArgs: ['--version'], debianPackage: 'skopeo' },
  { name: 'umoci', versionArgs: ['--version'], debianPackage: 'umoci' },
  { name: 'runsc', versionArgs: ['--version'], debianPackage: 'runsc' },
  { name: 'busybox', path: '/bin/busybox', versionArgs: null, debianPackage: 'busybox-static' },
  { name: 'ctr', versionArgs: ['--version'], debianPackage: 'containerd' },
  { name: 'ctr-remote', versionArgs: ['--version'], debianPackage: 'stargz-snapshotter' },
  // the estargz paths' mount helper, built by setup.sh from the Go sources of this package (its version is the pin's)
  {
    name: 'estargz-mount',
    path: join(harnessDir(), 'paths', 'estargz', 'build', 'estargz-mount'),
    versionArgs: null,
    debianPackage: 'golang-github-containerd-stargz-snapshotter-dev',
    remedy: 'run ./setup.sh (it installs golang-go and golang-github-containerd-stargz-snapshotter-dev and runs harness/paths/estargz/build.sh)',
  },
];

export const DEBIAN_PACKAGES = [
  'docker.io',
  'docker-registry',
  'rclone',
  'erofs-utils',
  'mmdebstrap',
  'crun',
  'skopeo',
  'umoci',
  'runsc',
  'nginx-light',
  'busybox-static',
  'fuse3',
  'containerd',
  'stargz-snapshotter',
  'golang-go',
  'golang-github-containerd-stargz-snapshotter-dev',
];

export function whichBinary(name: string, preferred?: string): string | null {
  if (preferred && existsSync(preferred)) return preferred;
  const dirs = (process.env['PATH'] ?? '').split(delimiter).concat(['/usr/sbin', '/sbin', '/usr/bin', '/bin']);
  for (const d of dirs) {
    const p = join(d, name);
    if (d && existsSync(p)) return p;
  }
  return null;
}

function firstLine(text: string): string {
  return (text.split('\n').find((l) => l.trim() !== '') ?? '').trim();
}

function debianVersion(pkg: string): string | null {
  try {
    return execFileSync('dpkg-query', ['-W', '-f', '${Version}', pkg], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    return null;
  }
}

export function binaryVersion(path: string, spec: BinarySpec): string {
  if (spec.versionArgs) {
    try {
      const out = execFileSync(path, spec.versionArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 15_000 });
      const line = firstLine(out);
      if (line) return line;
    } catch (e) {
      const err = e as { stderr?: string; stdout?: string };
      const line = firstLine(`${err.stdout ?? ''}\n${err.stderr ?? ''}`);
      if (line) return line;
    }
  }
  const deb = debianVersion(spec.debianPackage);
  return deb ? `${spec.debianPackage} ${deb} (Debian package)` : 'unknown';
}

export async function pinBinaries(specs: BinarySpec[] = BINARIES): Promise<BinaryPin[]> {
  const pins: BinaryPin[] = [];
  const missing: string[] = [];
  const built: BinarySpec[] = [];
  for (const spec of specs) {
    const found = whichBinary(spec.name, spec.path);
    if (!found) {
      if (spec.remedy) built.push(spec);
      else missing.push(spec.debianPackage);
      continue;
    }
    const path = realpathSync(found);
    pins.push({ name: spec.name, path: pinnedPathOf(found), version: binaryVersion(found, spec), sha256: await sha256File(path) });
  }
  if (missing.length) {
    const pkgs = [...new Set(missing)].join(' ');
    throw new UserError(`binaries the paths run are missing (packages: ${pkgs})`, { key: 'artifacts' }, `install them: apt-get install -y ${pkgs}`);
  }
  if (built.length) throw new UserError(`binaries the paths run are missing: ${built.map((b) => b.name).join(', ')}`, { key: 'artifacts' }, built[0]!.remedy!);
  pins.push({ name: 'node', path: process.execPath, version: process.version, sha256: await sha256File(realpathSync(process.execPath)) });
  return pins;
}

/**
 * A pinned binary's recorded path: relative to the project when it lies in
 * this checkout (a tool setup.sh builds, such as estargz-mount), absolute
 * otherwise. Recorded absolute, the checkout's folder entered the pin's output
 * and with it every later stage's key: a same-key rerun of the published run
 * in another folder could not be one.
 */
export function pinnedPathOf(found: string): string {
  const rel = relative(projectRoot(), found);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : found;
}

/** Where a recorded pin path lies on this machine: a relative one is in this checkout. */
export function resolvePinnedPath(path: string): string {
  return isAbsolute(path) ? path : join(projectRoot(), path);
}

export function kernelRelease(): string {
  return release();
}
