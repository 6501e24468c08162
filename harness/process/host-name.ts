// The name of the host running launches, as journaled with each sample: the
// name an executor gives its node (BENCHGRAPH_HOST, e.g. a Kubernetes pod's
// spec.nodeName through the downward API, docs/SCALE.md), else the Slurm node
// name inside a Slurm job (SLURMD_NODENAME), else the host name. Inside a
// container the host name is the container's, not the node's.
import { hostname } from 'node:os';

export function hostName(env: NodeJS.ProcessEnv = process.env): string {
  return env['BENCHGRAPH_HOST'] || env['SLURMD_NODENAME'] || hostname();
}
