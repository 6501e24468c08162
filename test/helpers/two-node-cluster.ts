// A private two-node Slurm cluster (n1 and n2, one CPU each, on 127.0.0.1)
// for one test file, root only: started before the file's tests and stopped
// after them; SLURM_CONF points the runners the file starts at it. Returns
// the test function to use: serial as root, skipped (with a warning) otherwise.
import test from 'ava';
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
