// Runs units of work as Slurm jobs: one sbatch per job (honouring SLURM_CONF,
// partition, constraint, nodelist), polls their states, reports each change
// through onProgress, cancels every job not yet ended on abort or on
// SIGINT/SIGTERM (onCleanup), and returns each job's outcome as data: final
// state, node, exit code or signal, and the submission-to-start delay.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { UserError } from '../errors.js';
import { onCleanup, shutdownSignal } from '../process/cleanup.js';
import { slurmClient } from '../cluster/slurm-client.js';
import { checkJobName, jobFiles, parseSbatchOutput, renderBatchScript, sbatchArgs, type JobFiles } from './sbatch-script.js';
import { cancelJobs, jobDetail, queueRows } from './slurm-queue.js';
import { isFinal, jobStateOf } from './slurm-job-state.js';
import type { SlurmExecutorOptions, SlurmJobOutcome, SlurmJobProgress, SlurmJobSpec, SlurmJobState } from './slurm-job-types.js';

interface Tracked {
  spec: SlurmJobSpec;
  files: JobFiles;
  jobId: string | null;
  submittedAtMs: number | null;
  last: SlurmJobProgress | null;
  outcome: SlurmJobOutcome | null;
  /** Polls in a row that did not list this job. */
  missing: number;
}

export async function runSlurmJobs(jobs: SlurmJobSpec[], options: SlurmExecutorOptions): Promise<SlurmJobOutcome[]> {
  const names = new Set<string>();
  for (const j of jobs) {
    checkJobName(j.name);
    if (names.has(j.name)) throw new Error(`slurm job name ${j.name} given twice`);
    names.add(j.name);
  }
  mkdirSync(options.outputDir, { recursive: true });
  const signal = options.signal ? AbortSignal.any([options.signal, shutdownSignal]) : shutdownSignal;
  const conf = options.slurmConf;
  const tracked: Tracked[] = jobs.map((spec) => ({
    spec,
    files: jobFiles(options.outputDir, spec.name),
    jobId: null,
    submittedAtMs: null,
    last: null,
    outcome: null,
    missing: 0,
  }));
  const active = (): string[] => tracked.filter((t) => t.jobId && !t.outcome).map((t) => t.jobId!);
  const undo = onCleanup(`slurm jobs of ${options.outputDir}`, () => cancelJobs(active(), conf));
  const cancelAll = (): void => void cancelJobs(active(), conf);
  signal.addEventListener('abort', cancelAll, { once: true });
  try {
    for (const t of tracked) {
      if (signal.aborted) break;
      await submit(t, options);
    }
    // A job whose sbatch was in flight when the abort came was not among those cancelled then.
    if (signal.aborted) await cancelJobs(active(), conf);
    for (const t of tracked) if (!t.jobId) t.outcome = notSubmitted(t);
    let unreachableSince: number | null = null;
    while (tracked.some((t) => !t.outcome)) {
      const polledAt = Date.now();
      const unreachable = await poll(tracked, options);
      unreachableSince = unreachable ? (unreachableSince ?? polledAt) : null;
      if (unreachable && Date.now() - unreachableSince! > (options.controllerTimeoutMs ?? 120_000)) {
        throw new Error(`the Slurm controller did not answer for ${options.controllerTimeoutMs ?? 120_000} ms: ${unreachable}`);
      }
      if (tracked.some((t) => !t.outcome)) await sleep(options.pollMs ?? 250);
    }
    return tracked.map((t) => t.outcome!);
  } catch (e) {
    await cancelJobs(active(), conf);
    throw e;
  } finally {
    signal.removeEventListener('abort', cancelAll);
    await undo().catch(() => {});
  }
}

async function submit(t: Tracked, options: SlurmExecutorOptions): Promise<void> {
  // A stamp or output left by an earlier job of the same name must not be read as this one's.
  for (const f of [t.files.startStamp, t.files.stdout, t.files.stderr]) rmSync(f, { force: true });
  writeFileSync(t.files.script, renderBatchScript(t.spec, t.files), { mode: 0o755 });
  const args = sbatchArgs(t.spec, options, t.files);
  t.submittedAtMs = Date.now();
  const r = await slurmClient('sbatch', args, options.slurmConf);
  const id = r.code === 0 ? parseSbatchOutput(r.stdout) : null;
  if (!id) {
    throw new UserError(
      `sbatch refused job ${t.spec.name}: ${(r.stderr || r.stdout).trim()}`,
      { key: 'executor' },
      'check executor.partition, executor.constraint, the node list and SLURM_CONF (sinfo lists partitions, nodes and features)',
    );
  }
  t.jobId = id;
  report(t, { name: t.spec.name, jobId: id, state: 'pending', slurmState: 'PENDING', node: null, reason: null }, options);
}

function report(t: Tracked, p: SlurmJobProgress, options: SlurmExecutorOptions): void {
  const changed = !t.last || t.last.state !== p.state || t.last.node !== p.node;
  t.last = p;
  if (changed) options.onProgress?.(p);
}

/** One poll; returns squeue's message when the controller did not answer (nothing is concluded then). */
async function poll(tracked: Tracked[], options: SlurmExecutorOptions): Promise<string | null> {
  const open = tracked.filter((t) => t.jobId && !t.outcome);
  const answer = await queueRows(
    open.map((t) => t.jobId!),
    options.slurmConf,
  );
  if (answer.unreachable) return answer.unreachable;
  const rows = new Map(answer.rows.map((r) => [r.jobId, r]));
  for (const t of open) {
    const row = rows.get(t.jobId!);
    if (!row) {
      // Gone from the controller before we saw it end (MinJobAge passed, controller restarted).
      if (++t.missing >= 3) await finish(t, 'failed', options);
      continue;
    }
    t.missing = 0;
    const state = jobStateOf(row.slurmState);
    report(t, { name: t.spec.name, jobId: t.jobId!, state, slurmState: row.slurmState, node: row.node ?? t.last?.node ?? null, reason: row.reason }, options);
    if (isFinal(state)) await finish(t, state, options);
  }
  return null;
}

async function finish(t: Tracked, state: SlurmJobState, options: SlurmExecutorOptions): Promise<void> {
  const detail = await jobDetail(t.jobId!, options.slurmConf);
  const final = detail ? jobStateOf(detail.slurmState) : state;
  const stampMs = readStartStamp(t.files.startStamp);
  // Slurm gives a cancelled pending job a StartTime too (its cancel time): only a job that ran has started.
  const startedAtMs = stampMs ?? (final !== 'cancelled' ? (detail?.startTimeMs ?? null) : null);
  t.outcome = {
    name: t.spec.name,
    jobId: t.jobId,
    state: isFinal(final) ? (final as SlurmJobOutcome['state']) : 'failed',
    slurmState: detail?.slurmState ?? t.last?.slurmState ?? 'UNKNOWN',
    node: detail?.node ?? t.last?.node ?? null,
    exitCode: detail?.exitCode ?? null,
    signal: detail?.signal ?? null,
    reason: detail ? detail.reason : 'the controller no longer knows this job',
    submittedAtMs: t.submittedAtMs,
    startedAtMs,
    startDelayMs: startedAtMs !== null && t.submittedAtMs !== null ? startedAtMs - t.submittedAtMs : null,
    startDelaySource: stampMs !== null ? 'job-stamp' : startedAtMs !== null ? 'slurm-seconds' : null,
    stdoutFile: t.files.stdout,
    stderrFile: t.files.stderr,
  };
  report(
    t,
    { name: t.spec.name, jobId: t.jobId!, state: t.outcome.state, slurmState: t.outcome.slurmState, node: t.outcome.node, reason: t.outcome.reason },
    options,
  );
}

function notSubmitted(t: Tracked): SlurmJobOutcome {
  return {
    name: t.spec.name,
    jobId: null,
    state: 'cancelled',
    slurmState: 'NOT_SUBMITTED',
    node: null,
    exitCode: null,
    signal: null,
    reason: 'aborted before submission',
    submittedAtMs: null,
    startedAtMs: null,
    startDelayMs: null,
    startDelaySource: null,
    stdoutFile: t.files.stdout,
    stderrFile: t.files.stderr,
  };
}

/** The job's own start stamp (epoch ns from `date +%s%N`) as epoch ms, or null. */
function readStartStamp(file: string): number | null {
  try {
    const ns = readFileSync(file, 'utf8').trim();
    return /^\d{13,}$/.test(ns) ? Number(BigInt(ns) / 1000n) / 1000 : null;
  } catch {
    return null;
  }
}
