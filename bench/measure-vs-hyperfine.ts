// Benchmark (run by hand, not a test): `pipeline measure` against `hyperfine -N`
// and against a bare posix_spawn loop (bench/bare-spawn.c, the floor), on the
// same commands, interleaved in blocks so all three see the same machine state.
//   node dist/bench/measure-vs-hyperfine.js [--blocks 8] [--runs-per-block 30] [--warmup-per-block 3]
// Prints, per command: the median Completion of each tool, the ratio of medians
// pipeline measure / hyperfine (target 0.95-1.05), and the overhead per launch
// of each harness over the bare loop; the same with --record (DuckDB journal).
// The machine's load average is printed too: on a shared machine the figures
// move with it.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../harness/process/project-root.js';
import { quantile } from '../harness/stats/quantile.js';

const run = promisify(execFile);

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const blocks = flag('--blocks', 8);
const perBlock = flag('--runs-per-block', 30);
const warmup = flag('--warmup-per-block', 3);
const COMMANDS: string[][] = [['true'], ['sh', '-c', 'echo x']];

type Tool = 'measure' | 'measure --record' | 'hyperfine -N' | 'bare posix_spawn';

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-bench-'));
  const bare = join(dir, 'bare-spawn');
  const cli = join(projectRoot(), 'bin', 'pipeline.js');
  let seq = 0;
  try {
    await run('cc', ['-O2', '-o', bare, join(projectRoot(), 'bench', 'bare-spawn.c')]);
    const load0 = loadavg()[0]!;
    console.log(
      `${blocks} interleaved blocks of ${perBlock} runs (+${warmup} unrecorded warmup) per tool and command; load average ${load0.toFixed(2)} at start`,
    );
    for (const argv of COMMANDS) {
      const line = argv.map((a) => (/\s/.test(a) ? `'${a}'` : a)).join(' ');
      const times: Record<Tool, number[]> = { measure: [], 'measure --record': [], 'hyperfine -N': [], 'bare posix_spawn': [] };
      const runs: Record<Tool, () => Promise<number[]>> = {
        measure: async () => {
          const out = join(dir, `m${++seq}.json`);
          await run(process.execPath, [cli, 'measure', '-r', String(perBlock), '-w', String(warmup), '--export-json', out, '--', ...argv]);
          return (JSON.parse(await readFile(out, 'utf8')) as { results: { times: number[] }[] }).results[0]!.times.map((s) => s * 1000);
        },
        'measure --record': async () => {
          const out = join(dir, `r${++seq}.json`);
          await run(process.execPath, [
            cli,
            'measure',
            '-r',
            String(perBlock),
            '-w',
            String(warmup),
            '--record',
            join(dir, `rec${seq}`),
            '--export-json',
            out,
            '--',
            ...argv,
          ]);
          return (JSON.parse(await readFile(out, 'utf8')) as { results: { times: number[] }[] }).results[0]!.times.map((s) => s * 1000);
        },
        'hyperfine -N': async () => {
          const out = join(dir, `h${++seq}.json`);
          await run('hyperfine', ['-N', '--runs', String(perBlock), '--warmup', String(warmup), '--style', 'none', '--export-json', out, line]);
          return (JSON.parse(await readFile(out, 'utf8')) as { results: { times: number[] }[] }).results[0]!.times.map((s) => s * 1000);
        },
        'bare posix_spawn': async () => {
          const { stdout } = await run(bare, [String(perBlock + warmup), ...argv]);
          return stdout.trim().split('\n').map(Number).slice(warmup);
        },
      };
      const tools = Object.keys(runs) as Tool[];
      for (let b = 0; b < blocks; b++) {
        // Rotate the order of the tools from block to block.
        for (let k = 0; k < tools.length; k++) {
          const tool = tools[(b + k) % tools.length]!;
          times[tool].push(...(await runs[tool]()));
        }
      }
      const med = (t: Tool): number => quantile(times[t], 0.5);
      const floor = med('bare posix_spawn');
      console.log(`\n${line}`);
      for (const t of tools) {
        const over = t === 'bare posix_spawn' ? '' : `   overhead over bare ${((med(t) - floor) * 1000).toFixed(0).padStart(4)} µs/launch`;
        console.log(`  ${t.padEnd(18)} median ${med(t).toFixed(3)} ms   P95 ${quantile(times[t], 0.95).toFixed(3)} ms   n=${times[t].length}${over}`);
      }
      const ratio = med('measure') / med('hyperfine -N');
      console.log(
        `  ratio of medians, pipeline measure / hyperfine -N: ${ratio.toFixed(3)} (target 0.95-1.05) ${ratio >= 0.95 && ratio <= 1.05 ? 'OK' : 'OUT OF RANGE'}`,
      );
      console.log(`  ratio of medians, pipeline measure --record / hyperfine -N: ${(med('measure --record') / med('hyperfine -N')).toFixed(3)}`);
    }
    console.log(`\nload average ${loadavg()[0]!.toFixed(2)} at end (2 cores; other work on the machine moves every figure)`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
