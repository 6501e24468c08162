// Effects: asks the controller about jobs (squeue for states, scontrol for an
// ended job's exit code and start time) and cancels jobs (scancel). Works on a
// minimal cluster without accounting (sacct needs slurmdbd).
import { slurmClient } from '../cluster/slurm-client.js';
import { type JobDetail, jobDetailOf, parseQueueRows, parseScontrolJob, type QueueRow, SQUEUE_FORMAT } from './slurm-job-record.js';

export interface QueueAnswer {
  /** Rows of the jobs the controller still knows (ended jobs stay for MinJobAge, 300 s by default). */
  rows: QueueRow[];
  /** Set when the controller did not answer (the rows say nothing then); squeue's message. */
  unreachable: string | null;
}

export async function queueRows(jobIds: string[], slurmConf?: string): Promise<QueueAnswer> {
  if (!jobIds.length) return { rows: [], unreachable: null };
  const r = await slurmClient('squeue', ['--jobs', jobIds.join(','), '--states', 'all', '-h', '-o', SQUEUE_FORMAT], slurmConf);
  if (r.code === 0) return { rows: parseQueueRows(r.stdout), unreachable: null };
  if (!/invalid job id/i.test(r.stderr)) return { rows: [], unreachable: (r.stderr || r.stdout).trim() || `squeue exit ${r.code}` };
  // squeue refuses the whole list when one id is no longer known: ask one by one.
  if (jobIds.length === 1) return { rows: [], unreachable: null };
  const answers = await Promise.all(jobIds.map((id) => queueRows([id], slurmConf)));
  return { rows: answers.flatMap((a) => a.rows), unreachable: answers.find((a) => a.unreachable)?.unreachable ?? null };
}

/** Details of one job, or null when the controller no longer knows it. */
export async function jobDetail(jobId: string, slurmConf?: string): Promise<JobDetail | null> {
  const r = await slurmClient('scontrol', ['show', 'job', '-o', jobId], slurmConf);
  if (r.code !== 0 || !r.stdout.trim()) return null;
  return jobDetailOf(parseScontrolJob(r.stdout.split('\n')[0]!));
}

export async function cancelJobs(jobIds: string[], slurmConf?: string): Promise<void> {
  if (!jobIds.length) return;
  await slurmClient('scancel', jobIds, slurmConf);
}
