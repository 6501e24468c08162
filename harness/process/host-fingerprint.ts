// The host settings that change start-up times without changing any input of
// the experiment: CPU (model, microcode, governor, boost, SMT), the CPU
// vulnerability mitigations, the kernel and its command line, the cgroup
// version, the Docker storage driver, the data folder's file system and mount
// options and whether its ext4 has a journal, virtualization and steal. Recorded per sampling session, diffed by
// `pipeline compare` and `pipeline history`. Parsing is pure; reading /proc,
// /sys and two small commands is `readHostFingerprint`.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { cpus, release, totalmem, version } from 'node:os';
import { resolve } from 'node:path';
import { ext4Journal, mountEntryOf, parseMountinfo } from './data-filesystem.js';

export interface HostFingerprint {
  cpuModel: string;
  /** /proc/cpuinfo `microcode` of the first CPU, or `unknown`. */
  microcode: string;
  /** cpufreq scaling governor of cpu0, or `unavailable` (no cpufreq: typical in a VM). */
  governor: string;
  /** `on`, `off` or `unavailable` (cpufreq/boost, or intel_pstate/no_turbo inverted). */
  boost: string;
  /** /sys/devices/system/cpu/smt/control: on, off, forceoff, notsupported, notimplemented, or `unavailable`. */
  smt: string;
  cpuCount: number;
  memoryBytes: number;
  /** One line per file of /sys/devices/system/cpu/vulnerabilities. */
  vulnerabilities: Record<string, string>;
  kernelRelease: string;
  kernelVersion: string;
  kernelCmdline: string;
  /** `isolcpus=` from the command line, or '' when absent. */
  isolcpus: string;
  cgroupVersion: '1' | '2' | 'unknown';
  /** The private Docker engine's storage driver when one ran in the session, else `no engine`. */
  dockerStorageDriver: string;
  /** The data folder's mount: file system type and mount options. */
  dataFsType: string;
  dataMountOptions: string;
  /**
   * Whether the data folder's ext4 has a journal in use (/proc/fs/jbd2, `noload`: data-filesystem.ts): `journal`,
   * `no journal`, or `unknown` (another file system, or not readable); absent in records before 2026-12-04.
   */
  dataJournal?: 'journal' | 'no journal' | 'unknown';
  /** systemd-detect-virt's answer (`none` on bare metal), or `unknown`. */
  virtualization: string;
  /** `present` when steal took at least STEAL_PRESENT_SHARE of CPU time over the session, else `none`; `unknown` when not measured. */
  steal: 'present' | 'none' | 'unknown';
}

/** Steal at or above 1% of CPU time over a session counts as present. */
export const STEAL_PRESENT_SHARE = 0.01;

/** Pure: the first value of `field` in /proc/cpuinfo text. */
export function cpuinfoField(text: string, field: string): string | null {
  for (const line of text.split('\n')) {
    const i = line.indexOf(':');
    if (i > 0 && line.slice(0, i).trim() === field) return line.slice(i + 1).trim();
  }
  return null;
}

/** Pure: `isolcpus=` of a kernel command line ('' when absent). */
export function isolcpusOf(cmdline: string): string {
  const m = /(?:^|\s)isolcpus=(\S+)/.exec(cmdline);
  return m ? m[1]! : '';
}

/** Pure: the mount holding `dir` (the longest mount point that is `dir` or a parent), from mountinfo text. */
export function mountOf(mountinfo: string, dir: string): { fsType: string; options: string } | null {
  const m = mountEntryOf(parseMountinfo(mountinfo), resolve(dir));
  return m ? { fsType: m.fsType, options: [m.mountOptions, m.superOptions].filter(Boolean).join(',') } : null;
}

/** Pure: the fingerprint's dataJournal from the data folder's mount and the names in /proc/fs/jbd2 (null: unreadable). */
export function journalOf(mountinfo: string, dir: string, jbd2Names: readonly string[] | null): NonNullable<HostFingerprint['dataJournal']> {
  const m = mountEntryOf(parseMountinfo(mountinfo), resolve(dir));
  const j = m ? ext4Journal(m, jbd2Names) : null;
  return j === null ? 'unknown' : j ? 'journal' : 'no journal';
}

function jbd2Names(): string[] | null {
  try {
    return readdirSync('/proc/fs/jbd2');
  } catch {
    return existsSync('/proc/fs') ? [] : null; // no jbd2 folder at all: no ext4 journal is in use
  }
}

/** Pure: steal over a session as the fingerprint records it. */
export function stealOf(stealShare: number | null | undefined): HostFingerprint['steal'] {
  if (stealShare === null || stealShare === undefined || !Number.isFinite(stealShare)) return 'unknown';
  return stealShare >= STEAL_PRESENT_SHARE ? 'present' : 'none';
}

function readOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return fallback;
  }
}

function commandOr(command: string, args: string[], fallback: string): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim() || fallback;
  } catch (e) {
    // systemd-detect-virt exits 1 when it prints `none`
    const out = (e as { stdout?: string }).stdout?.trim();
    return out || fallback;
  }
}

function boostOf(): string {
  const boost = readOr('/sys/devices/system/cpu/cpufreq/boost', '');
  if (boost === '1') return 'on';
  if (boost === '0') return 'off';
  const noTurbo = readOr('/sys/devices/system/cpu/intel_pstate/no_turbo', '');
  if (noTurbo === '1') return 'off';
  if (noTurbo === '0') return 'on';
  return 'unavailable';
}

function vulnerabilities(): Record<string, string> {
  const dir = '/sys/devices/system/cpu/vulnerabilities';
  const out: Record<string, string> = {};
  try {
    for (const name of readdirSync(dir).sort()) out[name] = readOr(`${dir}/${name}`, 'unreadable');
  } catch {
    // no such folder: an old kernel or not Linux
  }
  return out;
}

export interface FingerprintOptions {
  /** The data folder, whose file system is recorded. */
  dataDir: string;
  /** Socket of the session's private Docker engine, when one ran. */
  dockerSocket?: string | null;
  /** Steal share of CPU time over the session (host-noise.ts), when measured. */
  stealShare?: number | null;
}

/** Reads the fingerprint of this host now. Never throws: what cannot be read is `unknown` or `unavailable`. */
export function readHostFingerprint(o: FingerprintOptions): HostFingerprint {
  const cpuinfo = readOr('/proc/cpuinfo', '');
  const cmdline = readOr('/proc/cmdline', '');
  let dataDir = resolve(o.dataDir);
  try {
    dataDir = realpathSync(dataDir);
  } catch {
    // not created yet: its parents decide the mount
  }
  const mountinfo = readOr('/proc/self/mountinfo', '');
  const mount = mountOf(mountinfo, dataDir);
  return {
    cpuModel: cpuinfoField(cpuinfo, 'model name') ?? cpus()[0]?.model ?? 'unknown',
    microcode: cpuinfoField(cpuinfo, 'microcode') ?? 'unknown',
    governor: readOr('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor', 'unavailable'),
    boost: boostOf(),
    smt: readOr('/sys/devices/system/cpu/smt/control', 'unavailable'),
    cpuCount: cpus().length,
    memoryBytes: totalmem(),
    vulnerabilities: vulnerabilities(),
    kernelRelease: release(),
    kernelVersion: version(),
    kernelCmdline: cmdline,
    isolcpus: isolcpusOf(cmdline),
    cgroupVersion: existsSync('/sys/fs/cgroup/cgroup.controllers') ? '2' : existsSync('/sys/fs/cgroup') ? '1' : 'unknown',
    dockerStorageDriver: o.dockerSocket ? commandOr('docker', ['-H', `unix://${o.dockerSocket}`, 'info', '--format', '{{.Driver}}'], 'unknown') : 'no engine',
    dataFsType: mount?.fsType ?? 'unknown',
    dataMountOptions: mount?.options ?? 'unknown',
    dataJournal: journalOf(mountinfo, dataDir, jbd2Names()),
    virtualization: commandOr('systemd-detect-virt', [], 'unknown'),
    steal: stealOf(o.stealShare),
  };
}
