// Effects: a private two-node Slurm cluster on 127.0.0.1 for tests and users.
// Everything lives in one temporary folder: a generated munge key and
// slurm.conf, munged with its own socket/pid/log/seed files, slurmctld and one
// slurmd per node (-N n1, -N n2) on ports picked free. stop() cancels every job
// of this cluster, stops each daemon by the pid its pid file named, kills any
// job step that outlived them, and removes the folder; it is registered with onCleanup, so it also runs on error and on
// SIGINT/SIGTERM.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { onCleanup } from '../process/cleanup.js';
import { isAlive } from '../process/pid.js';
import { removeScratch } from '../process/safe-remove.js';
import { freeLoopbackPort } from '../services/free-port.js';
import { type DaemonHandle, startPidFileDaemon, stopPidFileDaemon } from './pid-file-daemon.js';
import { ctldPidFile, type LocalNodeSpec, logDir, renderSlurmConf, slurmdPidFile, spoolDir, stateDir } from './slurm-conf.js';
import { slurmClient } from './slurm-client.js';
import { hideFoldersArgs } from './hide-folders.js';
import { killStraySteps } from './stray-steps.js';

export interface LocalNodeOptions {
  name: string;
  cpus?: number;
  features?: string[];
  /** Folders this node cannot see: each is covered by an empty tmpfs in the node's own mount namespace. */
  hiddenFolders?: string[];
}

export interface LocalClusterOptions {
  nodes?: LocalNodeOptions[];
  partition?: string;
  /** Parent of the cluster's temporary folder (default: the OS temp folder). */
  parentDir?: string;
  readyTimeoutMs?: number;
  /** Further slurm.conf lines, e.g. SchedulerParameters=... */
  extraConf?: string[];
  /** Picks each daemon's loopback port (default: freeLoopbackPort). */
  pickPort?: () => Promise<number>;
}

export interface LocalCluster {
  dir: string;
  /** Path to export as SLURM_CONF for sbatch, squeue, scontrol, scancel. */
  slurmConf: string;
  partition: string;
  nodes: LocalNodeSpec[];
  /** Pids of munged, slurmctld and each slurmd, as their pid files named them. */
  pids: { label: string; pid: number }[];
  startMs: number;
  /** Cancels its jobs, stops every daemon by pid, removes the folder. Idempotent. */
  stop(): Promise<void>;
}

export const defaultNodes: LocalNodeOptions[] = [{ name: 'n1' }, { name: 'n2' }];

/** Starts with new ports this many times when a daemon finds its port taken. */
const PORT_ATTEMPTS = 3;

/**
 * The cluster's ports are picked free (freeLoopbackPort) before its daemons bind them, so another program can take one
 * in between: then the start is undone and made again with new ports, up to PORT_ATTEMPTS times.
 */
export async function startLocalCluster(options: LocalClusterOptions = {}): Promise<LocalCluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startLocalClusterOnce(options);
    } catch (e) {
      if (attempt >= PORT_ATTEMPTS || !/Address already in use/.test(String((e as Error).message))) throw e;
    }
  }
}

async function startLocalClusterOnce(options: LocalClusterOptions): Promise<LocalCluster> {
  const t0 = performance.now();
  const dir = mkdtempSync(join(options.parentDir ?? tmpdir(), 'benchgraph-slurm-'));
  // munged requires execute permission for all on every folder above its socket.
  chmodSync(dir, 0o711);
  const slurmConf = join(dir, 'slurm.conf');
  const daemons: { handle: DaemonHandle; program: string }[] = [];
  let stopped: Promise<void> | null = null;
  const stopAll = (): Promise<void> =>
    (stopped ??= (async () => {
      // A client waits about 9 s for a controller that is gone: ask only a live one.
      if (daemons.some((d) => d.program === 'slurmctld' && isAlive(d.handle.pid))) await cancelAllJobs(slurmConf);
      for (const d of [...daemons].reverse()) await stopPidFileDaemon(d.handle, d.program);
      await killStraySteps(dir);
      const blocked = removeScratch(dir);
      if (blocked.length) throw new Error(`${dir} not removed: mounts below it: ${blocked.join(', ')}`);
    })());
  const undo = onCleanup(`local slurm cluster ${dir}`, stopAll);
  try {
    const keyFile = join(dir, 'munge.key');
    writeFileSync(keyFile, randomBytes(1024), { mode: 0o400 });
    const mungeSocket = join(dir, 'munge.sock');
    const munged = await startPidFileDaemon(
      'munged',
      'munged',
      [
        '--key-file',
        keyFile,
        '--socket',
        mungeSocket,
        '--pid-file',
        join(dir, 'munged.pid'),
        '--log-file',
        join(dir, 'munged.log'),
        '--seed-file',
        join(dir, 'munged.seed'),
      ],
      join(dir, 'munged.pid'),
      join(dir, 'munged.log'),
    );
    daemons.push({ handle: munged, program: 'munged' });

    const nodeOptions = options.nodes ?? defaultNodes;
    const nodes: LocalNodeSpec[] = [];
    const pickPort = options.pickPort ?? freeLoopbackPort;
    for (const n of nodeOptions) nodes.push({ name: n.name, port: await pickPort(), cpus: n.cpus ?? 2, features: n.features ?? [] });
    const partition = options.partition ?? 'local';
    const layout = { clusterName: 'benchgraph', dir, mungeSocket, ctldPort: await pickPort(), partition, nodes, extraLines: options.extraConf ?? [] };
    for (const d of [stateDir(dir), logDir(dir), ...nodes.map((n) => spoolDir(dir, n.name))]) mkdirSync(d, { recursive: true });
    writeFileSync(slurmConf, renderSlurmConf(layout));
    const env = { ...process.env, SLURM_CONF: slurmConf };

    const ctld = await startPidFileDaemon('slurmctld', 'slurmctld', ['-f', slurmConf], ctldPidFile(dir), join(logDir(dir), 'slurmctld.log'), env);
    daemons.push({ handle: ctld, program: 'slurmctld' });
    for (const n of nodeOptions) {
      const [command, args] = hideFoldersArgs(n.hiddenFolders ?? [], 'slurmd', ['-f', slurmConf, '-N', n.name]);
      const d = await startPidFileDaemon(`slurmd ${n.name}`, command, args, slurmdPidFile(dir, n.name), join(logDir(dir), `slurmd-${n.name}.log`), env);
      daemons.push({ handle: d, program: 'slurmd' });
    }
    await waitNodesIdle(
      slurmConf,
      nodes.map((n) => n.name),
      options.readyTimeoutMs ?? 30_000,
    );
    return {
      dir,
      slurmConf,
      partition,
      nodes,
      pids: daemons.map((d) => ({ label: d.handle.label, pid: d.handle.pid })),
      startMs: performance.now() - t0,
      stop: async () => {
        await stopAll();
        await undo();
      },
    };
  } catch (e) {
    await stopAll().catch(() => {});
    await undo();
    throw e;
  }
}

/** Waits until sinfo reports every node idle. */
async function waitNodesIdle(slurmConf: string, names: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const r = await slurmClient('sinfo', ['-N', '-h', '-o', '%N %t'], slurmConf);
    last = (r.stdout + r.stderr).trim();
    const states = new Map(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.trim().split(/\s+/) as [string, string]),
    );
    if (r.code === 0 && names.every((n) => states.get(n) === 'idle')) return;
    if (Date.now() > deadline) throw new Error(`local slurm nodes not idle after ${timeoutMs} ms: ${last}`);
    await sleep(50);
  }
}

/** Cancels every job of this private cluster and waits (up to 10 s) until none is left running. */
async function cancelAllJobs(slurmConf: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await slurmClient('squeue', ['-h', '-o', '%i'], slurmConf);
    const ids =
      r.code === 0
        ? r.stdout
            .split('\n')
            .map((s) => s.trim())
            .filter(Boolean)
        : [];
    if (!ids.length || Date.now() > deadline) return;
    await slurmClient('scancel', ids, slurmConf);
    await sleep(100);
  }
}
