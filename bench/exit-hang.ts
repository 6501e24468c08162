// Benchmark (run by hand, prints its figures): how often a `pipeline` process
// hangs at exit, with and without the Node flags its shebang gives
// (harness/process/cli-argv.ts, nodejs/node#54918). The hang needs a loaded
// machine: busy loops take every core while two runners start
// `pipeline history --fail-on regression` on a made-up archive, the arms
// alternating. A run still alive after the grace period is counted as hung
// and stopped by its pid.
// Usage: node dist/bench/exit-hang.js [runs per arm] [grace seconds]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliArgv, CLI_NODE_FLAGS } from '../harness/process/cli-argv.js';
import { around, fileMadeUpRun } from '../test/helpers/history-runs.js';

const runsPerArm = Number(process.argv[2] ?? 150);
const graceS = Number(process.argv[3] ?? 60);
const root = mkdtempSync(join(tmpdir(), 'benchgraph-exit-hang-'));
[300, 302, 299, 400].forEach((level, i) => {
  const cells = { 'shell lazy cold ready': around(level), 'shell oci-full cold ready': around(1000 + (i % 2)) };
  fileMadeUpRun(root, join(root, 'runs'), { cells, config: { design: { rounds: 5 } }, time: `2026-11-${10 + i}T10:00:00.000Z` }, i + 1);
});
const busy: ChildProcess[] = cpus().map(() => spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' }));
const stopBusy = (): void => void busy.forEach((b) => b.kill('SIGKILL'));
process.on('exit', stopBusy);

type Arm = 'with the flags' | 'without';
const counts: Record<Arm, { runs: number; hung: number }> = { 'with the flags': { runs: 0, hung: 0 }, without: { runs: 0, hung: 0 } };

function once(arm: Arm): Promise<void> {
  const [node, ...argv] = cliArgv(['history', root, '--fail-on', 'regression']);
  const args = arm === 'without' ? argv.filter((a) => !CLI_NODE_FLAGS.includes(a)) : argv;
  return new Promise((done) => {
    const child = spawn(node!, args, { cwd: root, stdio: 'ignore' });
    const timer = setTimeout(() => {
      counts[arm].hung++;
      child.kill('SIGKILL');
    }, graceS * 1000);
    child.on('exit', () => {
      clearTimeout(timer);
      counts[arm].runs++;
      done();
    });
  });
}

async function runner(offset: number): Promise<void> {
  for (let i = 0; i < runsPerArm; i++) await once((i + offset) % 2 === 0 ? 'with the flags' : 'without');
}
const started = Date.now();
const progress = setInterval(() => {
  const c = counts;
  process.stderr.write(
    `${c['with the flags'].runs + c.without.runs} of ${2 * runsPerArm} runs, hung: ${c['with the flags'].hung} with, ${c.without.hung} without\n`,
  );
}, 30_000);
await Promise.all([runner(0), runner(1)]);
clearInterval(progress);
stopBusy();
rmSync(root, { recursive: true, force: true });
console.log(
  `pipeline runs on a loaded machine (${busy.length} busy loops, 2 runners), ${((Date.now() - started) / 60_000).toFixed(1)} min, hung = alive after ${graceS} s:`,
);
for (const arm of ['with the flags', 'without'] as const) console.log(`  ${arm.padEnd(15)} ${counts[arm].hung} of ${counts[arm].runs} hung`);
console.log(`flags: ${CLI_NODE_FLAGS.join(' ')}`);
