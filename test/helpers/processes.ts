// Process facts for tests, from /proc.
import { readdirSync, readFileSync } from 'node:fs';

export { isAlive as alive } from '../../harness/process/pid.js';

/** Processes (other than this one) whose command line mentions `text`, as `pid cmdline`. */
export function processesMentioning(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(text) && Number(pid) !== process.pid) found.push(`${pid} ${cmd}`);
    } catch {
      /* gone */
    }
  }
  return found;
}
