// Effects: whether a process id names a live process (not a zombie), from /proc.
import { readFileSync } from 'node:fs';

/** True while the process exists and is not a zombie; false for pid <= 0 (a group or every process, never one holder). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
