// Benchmark (not a test), instrument cost of the launch helper
// (docs/STATISTICS.md, issue 23 item 1): `pipeline measure` (Node driving the
// C launch helper, as every benchgraph launch is measured) against a bare
// posix_spawn + wait4 loop (bench/bare-spawn.c, the floor) on the same
// command, in rounds: each round runs one block of each, in alternating order,
// so both see the same machine state. The row: the paired-round bootstrap
// interval (the project's, harness/stats/paired-bootstrap.ts) of the
// difference of median Completion, helper - bare, per launch.
//   node dist/bench/launcher-cost.js [--rounds 30] [--runs-per-round 20] [--warmup-per-round 3]
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../harness/process/project-root.js';
import { pairedRoundBootstrap, type PairedRound } from '../harness/stats/paired-bootstrap.js';
import { median } from '../harness/stats/quantile.js';

const run = promisify(execFile);
const flag = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const rounds = flag('--rounds', 30);
const perRound = flag('--runs-per-round', 20);
const warmup = flag('--warmup-per-round', 3);
const COMMANDS: string[][] = [['sh', '-c', 'echo x'], ['true']];

const dir = await mkdtemp(join(tmpdir(), 'benchgraph-launcher-cost-'));
try {
  const bare = join(dir, 'bare-spawn');
  await run('cc', ['-O2', '-o', bare, join(projectRoot(), 'bench', 'bare-spawn.c')]);
  const cli = join(projectRoot(), 'bin', 'pipeline.js');
  let seq = 0;
  const started = new Date();
  console.log(`${rounds} rounds x ${perRound} launches per tool (+${warmup} unrecorded), ${started.toISOString()}, load average ${loadavg()[0]!.toFixed(2)}`);
  for (const argv of COMMANDS) {
    const helper = async (): Promise<number[]> => {
      const out = join(dir, `m${++seq}.json`);
      await run(process.execPath, [cli, 'measure', '-r', String(perRound), '-w', String(warmup), '--export-json', out, '--', ...argv]);
      return (JSON.parse(await readFile(out, 'utf8')) as { results: { times: number[] }[] }).results[0]!.times.map((s) => s * 1000);
    };
    const floor = async (): Promise<number[]> => {
      const { stdout } = await run(bare, [String(perRound + warmup), ...argv]);
      return stdout.trim().split('\n').map(Number).slice(warmup);
    };
    const paired: PairedRound[] = [];
    for (let r = 0; r < rounds; r++) {
      const first = r % 2 === 0;
      const x = await (first ? helper() : floor());
      const y = await (first ? floor() : helper());
      paired.push(first ? { a: x, b: y } : { a: y, b: x });
    }
    const b = pairedRoundBootstrap(paired, { resamples: 5000, confidence: 0.95, seed: `launcher-cost|${argv.join(' ')}` });
    const us = (ms: number | null): string => (ms === null ? '-' : (ms * 1000).toFixed(0));
    console.log(
      `${argv.join(' ')}: helper median ${median(paired.flatMap((p) => [...p.a])).toFixed(3)} ms, bare ${median(paired.flatMap((p) => [...p.b])).toFixed(3)} ms; ` +
        `helper - bare ${us(b.observed)} µs [${us(b.low)}, ${us(b.high)}] per launch (95%, ${b.rounds} rounds)`,
    );
  }
  console.log(`load average ${loadavg()[0]!.toFixed(2)} at end (2 cores, shared machine)`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
