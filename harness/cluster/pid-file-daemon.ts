// Effects: a daemon that forks into the background and writes a pid file
// (munged, slurmctld, slurmd). Start runs its command, waits until the pid
// file names a live process, and returns that pid; stop sends SIGTERM to that
// pid only (after checking it is still the same program), waits until it is
// gone and uses SIGKILL after a grace period.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from '../process/pid.js';
import { logTail } from '../services/service-process.js';

export interface DaemonHandle {
  label: string;
  pid: number;
  pidFile: string;
  logFile: string;
}

/**
 * Runs the command that forks the daemon, with its stdout and stderr appended
 * to the log file (not pipes: a daemon that kept an inherited pipe open would
 * hold a pipe reader forever), and resolves with its exit code when it exits.
 */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, logFile: string, timeoutMs: number): Promise<number> {
  const fd = openSync(logFile, 'a');
  try {
    const child = spawn(command, args, { env, stdio: ['ignore', fd, fd] });
    return new Promise((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.once('error', () => (clearTimeout(timer), resolve(127)));
      child.once('exit', (code) => (clearTimeout(timer), resolve(code ?? 1)));
    });
  } finally {
    closeSync(fd);
  }
}

export function readPid(pidFile: string): number {
  try {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : 0;
  } catch {
    return 0;
  }
}

/** The program name of a live pid (from /proc/PID/comm), or '' when gone. */
function programOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

export async function startPidFileDaemon(
  label: string,
  command: string,
  args: string[],
  pidFile: string,
  logFile: string,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 15_000,
): Promise<DaemonHandle> {
  const code = await run(command, args, env, logFile, timeoutMs);
  if (code !== 0) throw new Error(`${label} did not start (exit ${code}): ${logTail(logFile)}`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pid = readPid(pidFile);
    if (pid && isAlive(pid)) return { label, pid, pidFile, logFile };
    if (Date.now() > deadline) throw new Error(`${label} wrote no live pid to ${pidFile} within ${timeoutMs} ms: ${logTail(logFile)}`);
    await sleep(10);
  }
}

/** Stops the daemon by its pid; true when it had to be killed with SIGKILL. */
export async function stopPidFileDaemon(d: DaemonHandle, program: string, graceMs = 10_000): Promise<boolean> {
  if (!isAlive(d.pid) || programOf(d.pid) !== program) return false;
  try {
    process.kill(d.pid, 'SIGTERM');
  } catch {
    return false;
  }
  const deadline = Date.now() + graceMs;
  while (isAlive(d.pid)) {
    if (Date.now() > deadline) {
      if (programOf(d.pid) === program) process.kill(d.pid, 'SIGKILL');
      while (isAlive(d.pid)) await sleep(10);
      return true;
    }
    await sleep(10);
  }
  return false;
}
