// A private two-node Slurm cluster (n1 and n2, one CPU each, on 127.0.0.1)
// for one test file, root only: started before the file's tests and stopped
// after them; SLURM_CONF points the runners the file starts at it. Returns
// the test function to use: serial as root, skipped (with a warning) otherwise.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { startCli } from './cli.js';
import { type LocalCluster, startLocalCluster } from '../../harness/cluster/local-cluster.js';

export function twoNodeClusterTests(file: string): typeof test.serial {
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    console.warn(`${file}: skipped, needs root; CI runs it as root`);
    return test.skip as unknown as typeof test.serial;
  }
  let cluster: LocalCluster | undefined;
  test.before(async () => {
    cluster = await startLocalCluster({
      nodes: [
        { name: 'n1', cpus: 1 },
        { name: 'n2', cpus: 1 },
      ],
    });
    process.env['SLURM_CONF'] = cluster.slurmConf;
  });
  test.after.always(async () => {
    await cluster?.stop();
  });
  return test.serial;
}

/** Runs `pipeline ARGS` in dir and cancels the Slurm job of `jobName` 1.5 s after it reports running; the run's exit code and stderr. */
export async function runCancellingJob(args: string[], dir: string, jobName = 'benchgraph-S2-a1'): Promise<{ code: number | null; err: string }> {
  const child = startCli(args, dir);
  let err = '';
  let cancelled = '';
  const running = new RegExp(`${jobName} \\(job (\\d+)\\) running`);
  child.stderr!.on('data', (chunk) => {
    err += chunk;
    const m = running.exec(err);
    if (m && !cancelled) {
      cancelled = m[1]!;
      setTimeout(() => execFileSync('scancel', [cancelled], { env: process.env }), 1500);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, err };
}
