// Effects: the safety net of stop(). A slurmstepd (Slurm's per-job step
// daemon) outlives slurmd when its job could not be cancelled through the
// controller. Ours are recognised by an open file inside the cluster's folder
// (the node log); each is killed with its job's processes, by pid.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from '../process/pid.js';

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function pids(): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
}

function holdsFileUnder(pid: number, dir: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(dir + '/');
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

const parentOf = (pid: number): number => {
  const stat = read(`/proc/${pid}/stat`);
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
};

/** Kills every slurmstepd holding a file under dir, and its descendants; returns the pids killed. */
export async function killStraySteps(dir: string): Promise<number[]> {
  const all = pids();
  const steps = all.filter((p) => read(`/proc/${p}/comm`).trim() === 'slurmstepd' && isAlive(p) && holdsFileUnder(p, dir));
  if (!steps.length) return [];
  const parents = new Map(all.map((p) => [p, parentOf(p)]));
  const doomed = new Set(steps);
  for (let grew = true; grew;) {
    grew = false;
    for (const [p, pp] of parents) if (doomed.has(pp) && !doomed.has(p)) (doomed.add(p), (grew = true));
  }
  for (const p of doomed) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  for (let i = 0; i < 100 && [...doomed].some(isAlive); i++) await sleep(10);
  return [...doomed];
}
