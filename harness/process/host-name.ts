// The name of the host running launches, as journaled with each sample: the
// Slurm node name inside a Slurm job (SLURMD_NODENAME), else the host name.
import { hostname } from 'node:os';

export function hostName(env: NodeJS.ProcessEnv = process.env): string {
  return env['SLURMD_NODENAME'] || hostname();
}
