// A runner in its own process for signal tests: runs two `sleep 60` jobs on the
// cluster named by SLURM_CONF, writing each job's pid to OUTDIR/NAME.pid and a
// line per progress change to stdout.
// Usage: node slurm-jobs-child.js OUTDIR
import { join } from 'node:path';
import { runSlurmJobs } from '../../harness/executors/slurm-executor.js';

const outDir = process.argv[2]!;
await runSlurmJobs(
  ['s1', 's2'].map((name, i) => ({ name, nodelist: `n${i + 1}`, argv: ['sh', '-c', 'echo $$ > "$1"; exec sleep 60', 'sh', join(outDir, `${name}.pid`)] })),
  { outputDir: outDir, pollMs: 100, onProgress: (p) => process.stdout.write(`${p.name} ${p.jobId} ${p.state} ${p.node ?? '-'}\n`) },
);
