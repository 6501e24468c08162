// Benchmark (run by hand, prints its figures): on the private local Slurm
// cluster, the time to start it (until both nodes are idle), each job's
// submission-to-start delay (sbatch call to the job's own start stamp) for
// jobs submitted one at a time to an idle cluster, alternating n1 and n2, and
// the time to stop it (every daemon gone, folder removed).
// Before that, [cycles] bare start/stop cycles give the start and stop medians.
// Usage: node dist/bench/slurm-cluster-figures.js [jobs] [cycles]
// BG_SLURM_EXTRA='Key=Value;...' appends slurm.conf lines (e.g. Slurm's default batch_sched_delay=3).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCluster } from '../harness/cluster/local-cluster.js';
import { runSlurmJobs } from '../harness/executors/slurm-executor.js';
import { quantile } from '../harness/stats/quantile.js';

const jobs = Number(process.argv[2] ?? 10);
const cycles = Number(process.argv[3] ?? 10);
const extraConf = process.env.BG_SLURM_EXTRA ? process.env.BG_SLURM_EXTRA.split(';') : [];
const fmt = (xs: number[]): string => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${quantile(s, 0.5).toFixed(0)} ms, min ${s[0]?.toFixed(0)} ms, max ${s.at(-1)?.toFixed(0)} ms`;
};
const starts: number[] = [];
const stops: number[] = [];
for (let i = 0; i < cycles; i++) {
  const c = await startLocalCluster({ extraConf });
  starts.push(c.startMs);
  const t0 = performance.now();
  await c.stop();
  stops.push(performance.now() - t0);
}
if (cycles) console.log(`${cycles} start/stop cycles: start (until both nodes idle) ${fmt(starts)}; stop (daemons gone, folder removed) ${fmt(stops)}`);
const cluster = await startLocalCluster({ extraConf });
const out = mkdtempSync(join(tmpdir(), 'benchgraph-slurm-bench-'));
const delays: { node: string | null; ms: number }[] = [];
try {
  for (let i = 0; i < jobs; i++) {
    const [o] = await runSlurmJobs([{ name: `j${i}`, argv: ['true'], nodelist: i % 2 ? 'n2' : 'n1' }], {
      slurmConf: cluster.slurmConf,
      outputDir: out,
      pollMs: 100,
    });
    if (!o || o.state !== 'done' || o.startDelayMs === null) throw new Error(`job ${i} did not run: ${JSON.stringify(o)}`);
    delays.push({ node: o.node, ms: o.startDelayMs });
  }
  const burst = await runSlurmJobs(
    Array.from({ length: jobs }, (_, i) => ({ name: `b${i}`, argv: ['true'], nodelist: i % 2 ? 'n2' : 'n1' })),
    { slurmConf: cluster.slurmConf, outputDir: out, pollMs: 100 },
  );
  if (burst.some((o) => o.state !== 'done')) throw new Error(`a burst job did not run: ${JSON.stringify(burst)}`);
  console.log(`submission-to-start delay, ${jobs} jobs submitted at once (2 CPUs per node): ${fmt(burst.map((o) => o.startDelayMs!))}`);
} finally {
  const t0 = performance.now();
  await cluster.stop();
  const stopMs = performance.now() - t0;
  rmSync(out, { recursive: true, force: true });
  console.log(`cluster of the job series: start ${cluster.startMs.toFixed(0)} ms; stop ${stopMs.toFixed(0)} ms`);
  console.log(`submission-to-start delay, ${delays.length} jobs one at a time (the first follows the start): ${fmt(delays.map((d) => d.ms))}`);
  console.log(`without the first job: ${fmt(delays.slice(1).map((d) => d.ms))}`);
  console.log(`per job: ${delays.map((d) => `${d.node} ${d.ms.toFixed(0)}`).join(', ')}`);
}
