// Pure: one line summing up the jobs of a distributed run from their latest
// progress, e.g. "jobs: 1 pending · 2 running (s1@n1, s2@n2) · 1 done · 0 failed · 0 cancelled".
import type { SlurmJobProgress, SlurmJobState } from './slurm-job-types.js';

const ORDER: SlurmJobState[] = ['pending', 'running', 'done', 'failed', 'cancelled'];

/** Keeps the latest progress of each job, by name. */
export function latestByJob(previous: ReadonlyMap<string, SlurmJobProgress>, p: SlurmJobProgress): Map<string, SlurmJobProgress> {
  return new Map(previous).set(p.name, p);
}

export function formatJobsLine(latest: ReadonlyMap<string, SlurmJobProgress>): string {
  const parts = ORDER.map((state) => {
    const jobs = [...latest.values()].filter((p) => p.state === state).sort((a, b) => a.name.localeCompare(b.name));
    const where = state === 'running' || state === 'failed' ? jobs.map((j) => `${j.name}@${j.node ?? '?'}`) : [];
    return `${jobs.length} ${state}${where.length ? ` (${where.join(', ')})` : ''}`;
  });
  return `jobs: ${parts.join(' · ')}`;
}
