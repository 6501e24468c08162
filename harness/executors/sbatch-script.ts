// Pure: the batch script of one job and the sbatch arguments that submit it.
// The script stamps its own start time (epoch ns) next to its output, then
// execs the job's argv, so the command runs without a shell in between.
import type { SlurmExecutorOptions, SlurmJobSpec } from './slurm-job-types.js';
import { shellWord } from '../process/shell-quote.js';

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function checkJobName(name: string): void {
  if (!NAME_RE.test(name)) throw new Error(`slurm job name ${JSON.stringify(name)}: use letters, digits, '.', '_' and '-'`);
}

export interface JobFiles {
  script: string;
  stdout: string;
  stderr: string;
  startStamp: string;
}

export function jobFiles(outputDir: string, name: string): JobFiles {
  const stem = `${outputDir}/${name}`;
  return { script: `${stem}.sbatch`, stdout: `${stem}.out`, stderr: `${stem}.err`, startStamp: `${stem}.started` };
}

export function renderBatchScript(job: SlurmJobSpec, files: JobFiles): string {
  if (!job.argv.length) throw new Error(`slurm job ${job.name}: empty argv`);
  const env = Object.entries(job.env ?? {}).map(([k, v]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new Error(`slurm job ${job.name}: bad environment name ${JSON.stringify(k)}`);
    return `export ${k}=${shellWord(v)}`;
  });
  return [
    '#!/bin/sh',
    `# benchgraph slurm job ${job.name}`,
    `date +%s%N > ${shellWord(files.startStamp)}`,
    ...env,
    `exec ${job.argv.map(shellWord).join(' ')}`,
    '',
  ].join('\n');
}

export function sbatchArgs(job: SlurmJobSpec, options: SlurmExecutorOptions, files: JobFiles): string[] {
  const args = ['--parsable', '--job-name', job.name, '--output', files.stdout, '--error', files.stderr, '--export', 'ALL'];
  if (options.partition) args.push('--partition', options.partition);
  if (options.constraint) args.push('--constraint', options.constraint);
  const nodelist = job.nodelist ?? options.nodelist;
  if (nodelist) args.push('--nodelist', nodelist);
  if (job.cwd) args.push('--chdir', job.cwd);
  if (job.exclusive) args.push('--exclusive');
  args.push(files.script);
  return args;
}

/** `--parsable` prints "jobid" or "jobid;cluster". */
export function parseSbatchOutput(stdout: string): string | null {
  const id = stdout.trim().split('\n').pop()?.split(';')[0]?.trim() ?? '';
  return /^\d+$/.test(id) ? id : null;
}
