// A test hook for crash safety: each step of a push passes a named fault
// point. With BENCHGRAPH_STORE_FAULT_LOG=FILE every point is appended to FILE
// as `N<TAB>name`; with BENCHGRAPH_STORE_KILL_AT=N the process kills itself
// with SIGKILL at point N, as a power cut or `kill -9` would.
import { appendFileSync } from 'node:fs';

let reached = 0;

export function faultPoint(name: string): void {
  reached++;
  const log = process.env['BENCHGRAPH_STORE_FAULT_LOG'];
  if (log) appendFileSync(log, `${reached}\t${name}\n`);
  if (process.env['BENCHGRAPH_STORE_KILL_AT'] === String(reached)) process.kill(process.pid, 'SIGKILL');
}
