// Effects: runs one Slurm client command (sbatch, squeue, scontrol, scancel,
// sinfo) against the cluster named by a slurm.conf, as data: exit code,
// stdout and stderr. A missing binary is a UserError with the remedy.
import { execFile } from 'node:child_process';
import { UserError } from '../errors.js';

export interface SlurmClientResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Environment for a Slurm client: SLURM_CONF when given, else the caller's own. */
export function slurmEnv(slurmConf: string | undefined): NodeJS.ProcessEnv {
  return slurmConf ? { ...process.env, SLURM_CONF: slurmConf } : { ...process.env };
}

export function slurmClient(command: string, args: string[], slurmConf?: string, timeoutMs = 30_000): Promise<SlurmClientResult> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env: slurmEnv(slurmConf), timeout: timeoutMs, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
        reject(new UserError(`${command} is not installed`, { key: 'executor.kind' }, 'install the Debian packages slurm-wlm and munge (setup.sh does)'));
        return;
      }
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** Like slurmClient, but a non-zero exit is an Error quoting stderr. */
export async function slurmClientOk(command: string, args: string[], slurmConf?: string): Promise<string> {
  const r = await slurmClient(command, args, slurmConf);
  if (r.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${r.code}): ${r.stderr.trim() || r.stdout.trim()}`);
  return r.stdout;
}
