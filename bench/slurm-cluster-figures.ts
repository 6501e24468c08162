// Benchmark (run by hand, prints its figures): on the private local Slurm
// cluster, the time to start it (until both nodes are idle), each job's
// submission-to-start delay (sbatch call to the job's own start stamp) for
// jobs submitted one at a time to an idle cluster, alternating n1 and n2, and
// the time to stop it (every daemon gone, folder removed).
// Usage: node dist/bench/slurm-cluster-figures.js [jobs]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCluster } from '../harness/cluster/local-cluster.js';
import { runSlurmJobs } from '../harness/executors/slurm-executor.js';
import { quantile } from '../harness/stats/quantile.js';

const jobs = Number(process.argv[2] ?? 10);
const cluster = await startLocalCluster({ extraConf: process.env.BG_SLURM_EXTRA ? process.env.BG_SLURM_EXTRA.split(';') : [] });
const out = mkdtempSync(join(tmpdir(), 'benchgraph-slurm-bench-'));
const delays: { node: string | null; ms: number }[] = [];
try {
  for (let i = 0; i < jobs; i++) {
    const [o] = await runSlurmJobs([{ name: `j${i}`, argv: ['true'], nodelist: i % 2 ? 'n2' : 'n1' }], { slurmConf: cluster.slurmConf, outputDir: out, pollMs: 100 });
    if (!o || o.state !== 'done' || o.startDelayMs === null) throw new Error(`job ${i} did not run: ${JSON.stringify(o)}`);
    delays.push({ node: o.node, ms: o.startDelayMs });
  }
} finally {
  const t0 = performance.now();
  await cluster.stop();
  const stopMs = performance.now() - t0;
  rmSync(out, { recursive: true, force: true });
  const ms = delays.map((d) => d.ms).sort((a, b) => a - b);
  console.log(`cluster start: ${cluster.startMs.toFixed(0)} ms; stop: ${stopMs.toFixed(0)} ms`);
  console.log(`submission-to-start delay, ${ms.length} jobs one at a time: median ${quantile(ms, 0.5).toFixed(0)} ms, min ${ms[0]?.toFixed(0)} ms, max ${ms.at(-1)?.toFixed(0)} ms`);
  console.log(`per job: ${delays.map((d) => `${d.node} ${d.ms.toFixed(0)}`).join(', ')}`);
}
