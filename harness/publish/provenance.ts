// Provenance facts for the report (effects at the edge, read once by the
// report stage): the host that ran the samples, the benchgraph commit with a
// dirty flag, and the Debian mirror and date of the package set.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { checkoutState } from '../process/checkout-state.js';
import { projectRoot } from '../process/project-root.js';
import { dataFilesystem, describeFilesystem } from '../process/data-filesystem.js';

/** Facts about the host that ran the samples (read by the report stage; null when unknown). */
export interface HostDescription {
  cpuModel: string | null;
  vcpus: number | null;
  memoryBytes: number | null;
  /** e.g. 'kvm', 'none' (bare metal), from systemd-detect-virt or /proc/cpuinfo. */
  virtualization: string | null;
  /** Filesystem type under the data folder, e.g. 'ext4', 'overlay'. */
  storageDriver: string | null;
  /** 'v1', 'v2' or 'hybrid'. */
  cgroupVersion: string | null;
  kernel: string | null;
  /** Where the facts come from, e.g. 'sample stage manifest and the report host'. */
  source: string;
}

export interface Provenance {
  host: HostDescription | null;
  /** The benchgraph checkout that rendered the report. */
  commit: { sha: string; dirty: boolean } | null;
  /** The Debian mirror the images were built from and when (the pin stage's start). */
  packageSet: { mirror: string; builtAt: string | null } | null;
}

function run(cmd: string, args: string[], cwd?: string): string | null {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim();
  } catch (e) {
    const out = (e as { stdout?: string }).stdout;
    return typeof out === 'string' && out.trim() !== '' ? out.trim() : null;
  }
}

interface Manifest {
  startedAt?: string;
  seconds?: number;
  host?: { cpuModel?: string; cores?: number; memoryBytes?: number; kernel?: string };
}

/** manifest.json of a frozen stage sits beside its outputs folder. */
export function readStageManifest(outputDir: string): Manifest | null {
  const file = join(dirname(outputDir), 'manifest.json');
  try {
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : null;
  } catch {
    return null;
  }
}

function virtualization(): string | null {
  const v = run('systemd-detect-virt', []);
  if (v) return v;
  try {
    return /^flags\s*:.*\bhypervisor\b/m.test(readFileSync('/proc/cpuinfo', 'utf8')) ? 'a hypervisor (kind unknown)' : 'none detected';
  } catch {
    return null;
  }
}

function cgroupVersion(): string | null {
  const fs = run('stat', ['-f', '-c', '%T', '/sys/fs/cgroup']);
  if (fs === 'cgroup2fs') return 'v2';
  if (fs === 'tmpfs') return existsSync('/sys/fs/cgroup/unified') ? 'hybrid (v1 controllers, v2 unified)' : 'v1';
  return fs;
}

/** "ext4 without a journal and mounted with discard" from the mount table; statfs's name where that cannot be read. */
function dataFolderFilesystem(dir: string): string | null {
  const fs = dataFilesystem(dir);
  return fs ? describeFilesystem(fs) : run('stat', ['-f', '-c', '%T', dir]);
}

/** Host facts: CPU, vCPUs, RAM and kernel from the sample stage's manifest when there is one, the rest probed here. */
export function describeHost(dataDir: string, sampleManifest: Manifest | null): HostDescription {
  const m = sampleManifest?.host;
  return {
    cpuModel: m?.cpuModel ?? cpus()[0]?.model ?? null,
    vcpus: m?.cores ?? cpus().length,
    memoryBytes: m?.memoryBytes ?? totalmem(),
    virtualization: virtualization(),
    storageDriver: dataFolderFilesystem(existsSync(dataDir) ? dataDir : '.'),
    cgroupVersion: cgroupVersion(),
    kernel: m?.kernel ?? release(),
    source: m
      ? 'CPU, vCPUs, RAM and kernel as sampled (the sample stage manifest); the rest probed at rendering'
      : 'all probed when the report was rendered, as no sample stage manifest was among the inputs',
  };
}

/** The benchgraph commit and whether its tracked files differ from it (run outputs aside: process/checkout-state.ts). */
export function checkoutCommit(): { sha: string; dirty: boolean } | null {
  const state = checkoutState(projectRoot());
  return state ? { sha: state.sha, dirty: state.dirty } : null;
}

export function readProvenance(opts: { dataDir: string; sampleOutputDir: string | null; pinOutputDir: string | null; mirror: string | null }): Provenance {
  const sampleManifest = opts.sampleOutputDir ? readStageManifest(opts.sampleOutputDir) : null;
  const pinManifest = opts.pinOutputDir ? readStageManifest(opts.pinOutputDir) : null;
  return {
    host: describeHost(opts.dataDir, sampleManifest),
    commit: checkoutCommit(),
    packageSet: opts.mirror ? { mirror: opts.mirror, builtAt: pinManifest?.startedAt ?? null } : null,
  };
}
