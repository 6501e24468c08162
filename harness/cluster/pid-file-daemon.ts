// Effects: a daemon that forks into the background and writes a pid file
// (munged, slurmctld, slurmd). Start runs its command, waits until the pid
// file names a live process, and returns that pid; stop sends SIGTERM to that
// pid only (after checking it is still the same program), waits until it is
// gone and uses SIGKILL after a grace period.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from '../process/pid.js';
import { logTail } from '../services/service-process.js';

export interface DaemonHandle {
  label: string;
  pid: number;
  pidFile: string;
  logFile: string;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { env, timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}`.trim() });
    });
  });
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
  const { code, output } = await run(command, args, env);
  if (code !== 0) throw new Error(`${label} did not start (exit ${code}): ${output || logTail(logFile)}`);
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
