// Entry point for a user (or a test): starts the private local Slurm cluster,
// prints the SLURM_CONF to export and the daemons' pids, and keeps it until
// SIGINT/SIGTERM, when every daemon is stopped and its folder removed.
// Usage: node dist/harness/cluster/start-local-cluster.js
import { installShutdownHandlers } from '../process/cleanup.js';
import { startLocalCluster } from './local-cluster.js';

installShutdownHandlers();
const cluster = await startLocalCluster();
process.stdout.write(
  [
    `local slurm cluster ready in ${cluster.startMs.toFixed(0)} ms: nodes ${cluster.nodes.map((n) => `${n.name} (127.0.0.1:${n.port})`).join(', ')}, partition ${cluster.partition}`,
    `pids: ${cluster.pids.map((p) => `${p.label} ${p.pid}`).join(', ')}`,
    `export SLURM_CONF=${cluster.slurmConf}`,
    `(Ctrl-C stops it and removes ${cluster.dir})`,
    '',
  ].join('\n'),
);
// Keep the process alive until a signal; the shutdown handlers stop the cluster and exit.
setInterval(() => {}, 1 << 30);
