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
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    const cPid = containerdPid();
    await proc.stop(30_000);
    if (cPid !== null && pidAlive(cPid)) {
      process.kill(cPid, 'SIGTERM');
      if (!(await waitPidGone(cPid, 10_000))) process.kill(cPid, 'SIGKILL');
      await waitPidGone(cPid, 5_000);
    }
    await waitSocketClosed(socket);
    unmountAll(dataRoot);
    await restoreKernel();
    const left = mountsUnder(dataRoot).concat(mountsUnder(shortDir));
    await removeShortDir();
    if (section.with['keep_data'] !== true && left.length === 0) rmSync(dataRoot, { recursive: true, force: true });
    if (left.length) throw new Error(`docker engine ${id}: still mounted after stop: ${left.join(', ')}`);
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
