// Effects at the edge: starts a service process with its output in a log file,
// waits until it is reachable, and stops it by its own pid, waiting until it
// is gone. Every process started here is registered with onCleanup, so it is
// stopped on normal exit, on error and on SIGINT/SIGTERM.
import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { onCleanup } from '../process/cleanup.js';

import type { StartedService } from './started-service.js';

export interface ServiceProcess {
  pid: number;
  /** Resolves with the exit code (or signal name) when the process has ended. */
  exited: Promise<string>;
  /** True once the process has ended. */
  hasExited(): boolean;
  /** Stops it (SIGTERM, then SIGKILL after graceMs) and waits until it has ended. */
  stop(graceMs?: number): Promise<void>;
}

export function startProcess(label: string, command: string, args: string[], logFile: string, cwd?: string): ServiceProcess {
  const fd = openSync(logFile, 'a');
  // Own process group: a terminal's Ctrl-C reaches the engine, which stops services in order.
  const child = spawn(command, args, { stdio: ['ignore', fd, fd], cwd, detached: true });
  closeSync(fd);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${command}`);
  let ended = false;
  const exited = new Promise<string>((resolve) => {
    child.on('exit', (code, signal) => {
      ended = true;
      resolve(signal ?? String(code));
    });
    child.on('error', (e) => {
      ended = true;
      resolve(`error: ${e.message}`);
    });
  });
  const stopNow = async (graceMs = 15_000): Promise<void> => {
    if (!ended) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      // Unref'd: the grace timer must not hold the process open for graceMs after the service has ended.
      const killed = await Promise.race([exited.then(() => true), sleep(graceMs, undefined, { ref: false }).then(() => false)]);
      if (!killed && !ended) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
        await exited;
      }
    }
    // A main process killed from outside (kill -9 of nginx's master) leaves its
    // children in the group we created for it (nginx workers still listening):
    // stop what is left of that group, and only that group.
    await stopGroupRest(pid, Math.min(graceMs, 5_000));
  };
  const undo = onCleanup(`${label} (pid ${pid})`, () => stopNow());
  return {
    pid,
    exited,
    hasExited: () => ended,
    stop: async (graceMs?: number) => {
      await stopNow(graceMs);
      await undo();
    },
  };
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the processes left in the process group `pgid` (created by startProcess for one service) after its leader ended. */
async function stopGroupRest(pgid: number, graceMs: number): Promise<void> {
  for (const [sig, waitMs] of [
    ['SIGTERM', graceMs],
    ['SIGKILL', 5_000],
  ] as const) {
    if (!groupAlive(pgid)) return;
    try {
      process.kill(-pgid, sig);
    } catch {
      return;
    }
    const deadline = Date.now() + waitMs;
    while (groupAlive(pgid) && Date.now() < deadline) await sleep(20);
  }
}

/** Resolves when host:port accepts a TCP connection. */
export function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Resolves when a unix socket accepts a connection. */
export function canConnectUnix(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ path });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Polls until `ready()` holds; fails if the process ends first or after timeoutMs, quoting its log. */
export async function waitUntil(what: string, proc: ServiceProcess, logFile: string, ready: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await ready()) return;
    if (proc.hasExited()) throw new Error(`${what} exited before it was ready: ${logTail(logFile)}`);
    if (Date.now() > deadline) {
      await proc.stop();
      throw new Error(`${what} was not ready after ${timeoutMs} ms: ${logTail(logFile)}`);
    }
    await sleep(20);
  }
}

/** Waits until nothing accepts connections on host:port any more. */
export async function waitPortClosed(host: string, port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (await canConnect(host, port)) {
    if (Date.now() > deadline) throw new Error(`${host}:${port} still accepts connections`);
    await sleep(20);
  }
}

/** Waits until a unix socket file is gone or refuses connections. */
export async function waitSocketClosed(path: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (existsSync(path) && (await canConnectUnix(path))) {
    if (Date.now() > deadline) throw new Error(`${path} still accepts connections`);
    await sleep(20);
  }
}

export function logTail(file: string, bytes = 1500): string {
  try {
    const text = readFileSync(file, 'utf8');
    return text.slice(-bytes).trim() || '(empty log)';
  } catch {
    return '(no log)';
  }
}

/** A service process listening on 127.0.0.1:port, as the engine sees it; stop() waits for the port to close. */
export function loopbackTcpService(proc: ServiceProcess, port: number, values: Record<string, string>): StartedService {
  const address = `127.0.0.1:${port}`;
  return {
    endpoint: { url: `http://${address}`, address, values: { ...values, port: String(port) } },
    upstream: { host: '127.0.0.1', port },
    process: proc,
    stop: async () => {
      await proc.stop();
      await waitPortClosed('127.0.0.1', port);
    },
  };
}
