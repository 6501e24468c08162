// Benchmark (run by hand, prints its figures): does running inside a Slurm job
// change a measured launch? `pipeline measure` of a trivial `sh -c 'echo MARKER'`
// runs directly and as a job on n1 and on n2 of the private local cluster,
// alternating places, and the median Ready of each block is printed by place.
// Usage: node dist/bench/slurm-launch-in-job.js [runs per block] [blocks per place]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCluster } from '../harness/cluster/local-cluster.js';
import { runSlurmJobs } from '../harness/executors/slurm-executor.js';
import { projectRoot } from '../harness/process/project-root.js';
import { quantile } from '../harness/stats/quantile.js';

const runs = Number(process.argv[2] ?? 200);
const blocks = Number(process.argv[3] ?? 3);
const measureArgv = [
  process.execPath,
  join(projectRoot(), 'bin', 'pipeline.js'),
  'measure',
  '--runs',
  String(runs),
  '--warmup',
  '20',
  '--json',
  '--',
  'sh',
  '-c',
  'echo MARKER',
];
const readyMedian = (json: string): number => (JSON.parse(json) as { summary: { readyMs: { median: number } } }).summary.readyMs.median;

const cluster = await startLocalCluster();
const out = mkdtempSync(join(tmpdir(), 'benchgraph-slurm-launch-'));
const byPlace = new Map<string, number[]>();
try {
  for (let b = 0; b < blocks; b++) {
    for (const place of ['direct', 'n1', 'n2']) {
      let median: number;
      if (place === 'direct') median = readyMedian(execFileSync(measureArgv[0]!, measureArgv.slice(1), { encoding: 'utf8' }));
      else {
        const [o] = await runSlurmJobs([{ name: `m-${place}-${b}`, nodelist: place, argv: measureArgv }], {
          slurmConf: cluster.slurmConf,
          outputDir: out,
          pollMs: 100,
        });
        if (o!.state !== 'done') throw new Error(`measure job on ${place}: ${o!.state} ${readFileSync(o!.stderrFile, 'utf8')}`);
        median = readyMedian(readFileSync(o!.stdoutFile, 'utf8'));
      }
      byPlace.set(place, [...(byPlace.get(place) ?? []), median]);
    }
  }
} finally {
  await cluster.stop();
  rmSync(out, { recursive: true, force: true });
}
for (const [place, medians] of byPlace) {
  console.log(
    `${place}: median Ready of ${runs} launches per block: ${medians.map((m) => m.toFixed(3)).join(', ')} ms (median of blocks ${quantile(medians, 0.5).toFixed(3)} ms)`,
  );
}
