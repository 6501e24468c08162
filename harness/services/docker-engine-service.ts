// Service kind `docker-engine`: a private dockerd (Debian docker.io) for the
// experiment, never the user's own: its own --data-root, --exec-root,
// --pidfile, daemon config file and unix socket, its own containerd (started
// by dockerd under the exec root), and always --bridge=none --iptables=false
// --ip6tables=false --ip-forward=false --ip-masq=false, so it creates no
// network and changes no kernel network setting. The exec root and the socket
// live in a short folder under the system temp folder (unix socket paths are
// limited to 107 bytes). Stopping it waits for dockerd and containerd to end,
// unmounts anything left under its folders, removes the cgroups it created
// and its folders.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, rmdirSync, writeFileSync, readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceSection } from '../config/pipeline-config.js';
import { onCleanup } from '../process/cleanup.js';
import { mountsUnder } from '../process/mount-table.js';
import { canConnectUnix, startProcess, waitSocketClosed, waitUntil } from './service-process.js';
import type { StartedService } from './started-service.js';
import type { ServiceKind } from './service-kind.js';

const IP_FORWARD = '/proc/sys/net/ipv4/ip_forward';

/** The Docker CLI matching the Debian engine (another docker CLI may come first on PATH). */
export function dockerCli(): string {
  return existsSync('/usr/bin/docker') ? '/usr/bin/docker' : 'docker';
}

export function dockerdArgs(o: { dataRoot: string; execRoot: string; pidFile: string; socket: string; configFile: string; cgroupParent: string }): string[] {
  return [
    '--data-root',
    o.dataRoot,
    '--exec-root',
    o.execRoot,
    '--pidfile',
    o.pidFile,
    '--config-file',
    o.configFile,
    '-H',
    `unix://${o.socket}`,
    '--bridge=none',
    '--iptables=false',
    '--ip6tables=false',
    '--ip-forward=false',
    '--ip-masq=false',
    '--userland-proxy=false',
    '--cgroup-parent',
    o.cgroupParent,
  ];
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const status = readText(`/proc/${pid}/status`) ?? '';
    return !/^State:\s+Z/m.test(status);
  } catch {
    return false;
  }
}

async function waitPidGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (pidAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/** Stops a process we started by its pid: SIGTERM, then SIGKILL; a process that ended meanwhile is not an error. */
async function stopPid(pid: number): Promise<void> {
  const signal = (sig: NodeJS.Signals): void => {
    try {
      process.kill(pid, sig);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
    }
  };
  if (!pidAlive(pid)) return;
  signal('SIGTERM');
  if (await waitPidGone(pid, 10_000)) return;
  signal('SIGKILL');
  if (!(await waitPidGone(pid, 5_000))) throw new Error(`pid ${pid} did not end after SIGKILL`);
}

function unmountAll(dir: string): void {
  for (const m of mountsUnder(dir).sort((a, b) => b.length - a.length)) {
    try {
      execFileSync('umount', [m], { stdio: 'ignore' });
    } catch {
      try {
        execFileSync('umount', ['-l', m], { stdio: 'ignore' });
      } catch {
        /* reported below */
      }
    }
  }
}

function removeCgroups(name: string): void {
  const base = '/sys/fs/cgroup';
  const roots = [base, ...(existsSync(base) ? readdirSync(base).map((d) => join(base, d)) : [])];
  for (const r of roots) {
    const dir = join(r, name);
    if (!existsSync(dir)) continue;
    // children first (containers that did not get removed)
    for (const child of readdirSync(dir, { withFileTypes: true })) {
      if (child.isDirectory()) {
        try {
          rmdirSync(join(dir, child.name));
        } catch {
          /* busy or not a cgroup */
        }
      }
    }
    try {
      rmdirSync(dir);
    } catch {
      /* still in use */
    }
  }
}

export async function startDockerEngine(
  id: string,
  section: ServiceSection,
  _preparedDir: string | undefined,
  runDir: string,
  log: (l: string) => void,
): Promise<StartedService> {
  const runAbs = resolve(runDir);
  mkdirSync(runAbs, { recursive: true });
  const dataRoot = resolve(String(section.with['data_root'] ?? join(runAbs, 'data')));
  mkdirSync(dataRoot, { recursive: true });
  const shortDir = mkdtempSync(join(tmpdir(), 'bg-engine-'));
  const removeShortDir = onCleanup(`docker engine ${id} folder ${shortDir}`, () => {
    unmountAll(shortDir);
    // Never remove through a mount that would not go: that would delete what it shows.
    const busy = mountsUnder(shortDir);
    if (busy.length) throw new Error(`still mounted: ${busy.join(', ')}`);
    rmSync(shortDir, { recursive: true, force: true });
  });
  const execRoot = join(shortDir, 'exec');
  const socket = join(shortDir, 'docker.sock');
  const pidFile = join(runAbs, 'dockerd.pid');
  const configFile = join(runAbs, 'daemon.json');
  // The trust key would otherwise be written to /etc/docker/key.json.
  writeFileSync(configFile, JSON.stringify({ 'deprecated-key-path': join(runAbs, 'key.json') }, null, 2) + '\n');
  const cgroupParent = `benchgraph-${randomBytes(4).toString('hex')}`;
  const ipForwardBefore = readText(IP_FORWARD);
  const restoreKernel = onCleanup(`docker engine ${id} kernel settings`, () => {
    if (ipForwardBefore !== null && readText(IP_FORWARD) !== ipForwardBefore) writeFileSync(IP_FORWARD, ipForwardBefore + '\n');
    removeCgroups(cgroupParent);
  });
  const binary = String(section.with['binary'] ?? 'dockerd');
  const logFile = join(runAbs, 'dockerd.log');
  const args = dockerdArgs({ dataRoot, execRoot, pidFile, socket, configFile, cgroupParent });
  const proc = startProcess(`dockerd ${id}`, binary, args, logFile);
  const containerdPid = (): number | null => {
    const t = readText(join(execRoot, 'containerd', 'containerd.pid'));
    return t && /^\d+$/.test(t) ? Number(t) : null;
  };
  let stopped = false;
  // Every step runs even when one before it fails (containerd, killed with
  // dockerd, can end between the check and the kill): the unmount and the
  // folder removal must not depend on a kill succeeding.
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    const failures: string[] = [];
    const step = async (what: string, run: () => Promise<void> | void): Promise<void> => {
      try {
        await run();
      } catch (e) {
        failures.push(`${what}: ${(e as Error).message}`);
      }
    };
    const cPidBefore = containerdPid();
    await step('stopping dockerd', () => proc.stop(30_000));
    // Read again: a dockerd stopped early in its start may have written the pid file after the first read.
    for (const cPid of new Set([cPidBefore, containerdPid()])) {
      if (cPid !== null) await step(`stopping containerd (pid ${cPid})`, () => stopPid(cPid));
    }
    await step('waiting for its socket to close', () => waitSocketClosed(socket));
    unmountAll(dataRoot);
    unmountAll(shortDir);
    await step('restoring kernel settings and cgroups', restoreKernel);
    const left = mountsUnder(dataRoot).concat(mountsUnder(shortDir));
    if (left.length === 0) await step(`removing ${shortDir}`, removeShortDir);
    if (section.with['keep_data'] !== true && left.length === 0) await step(`removing ${dataRoot}`, () => rmSync(dataRoot, { recursive: true, force: true }));
    if (left.length) failures.push(`still mounted after stop: ${left.join(', ')}`);
    if (failures.length) throw new Error(`docker engine ${id}: ${failures.join('; ')}`);
  };
  const undo = onCleanup(`docker engine ${id}`, stop);
  try {
    await waitUntil(`dockerd ${id}`, proc, logFile, () => canConnectUnix(socket), 60_000);
  } catch (e) {
    await undo();
    throw e;
  }
  log(`service ${id}: private dockerd (pid ${proc.pid}) on unix://${socket}, data ${dataRoot}`);
  return {
    endpoint: { socket, values: { socket, host: `unix://${socket}`, docker: dockerCli(), data_root: dataRoot } },
    stop: undo,
    process: proc,
  };
}

export const dockerEngineKind: ServiceKind = {
  kind: 'docker-engine',
  start: startDockerEngine,
  contentPath: null,
};
