// The Slurm executor of the sample stage: one job per session with work left,
// each running `pipeline session-job SPEC` on its node and writing its own
// session file into the shared data folder; when all jobs end, the runner
// merges every session file into its journal (rows keyed by launch id, so
// nothing is counted twice). A job that failed or was cancelled leaves its
// session incomplete: the stage fails, naming it, and the next `pipeline run`
// resubmits only the incomplete sessions. Every stage samples on the
// experiment model, so every job rebuilds its stage's arm adapter from its
// kind; session-executor.ts chooses this executor.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageContext } from '../contract/stage.js';
import type { SampleJournal } from '../db/sample-journal.js';
import { journalHasSamples } from '../db/journal-tables.js';
import type { SessionRecord } from '../contract/exchange-files.js';
import type { SessionWork } from '../experiment/session-plan.js';
import { CheckFailed } from '../errors.js';
import { cliArgv } from '../process/cli-argv.js';
import { sessionJobFiles, writeSessionJobSpec } from './session-job-spec.js';
import { checkSharedFolder } from './shared-folder-check.js';
import { runSlurmJobs } from './slurm-executor.js';
import type { SlurmJobOutcome, SlurmJobProgress } from './slurm-job-types.js';
import { formatJobsLine, latestByJob } from './jobs-progress-line.js';

export interface SlurmSessionsResult {
  records: SessionRecord[];
  outcomes: SlurmJobOutcome[];
}

export interface SlurmSessionsOptions {
  /** Hand each job a copy of the journal as it is at submission (an adapter reads earlier rows back). */
  priorRows?: boolean;
  /** Write each finished session's record here as S<session>.a<attempt>.json, before a failure is raised. */
  recordsDir?: string;
  /** The arms of each unit when a session visits only some (an added session: design.adaptive, design.confirm). */
  arms?: Readonly<Record<string, readonly string[]>>;
  /** Whether the batch's last session is the run's last (default true). */
  last?: boolean;
}

export async function runSessionsOnSlurm(
  ctx: StageContext,
  journal: SampleJournal,
  work: readonly SessionWork[],
  attempt: number,
  options: SlurmSessionsOptions = {},
): Promise<SlurmSessionsResult> {
  const ex = ctx.config.executor;
  const slurm = { slurmConf: ex.slurm_conf, partition: ex.partition, constraint: ex.constraint };
  ctx.log(`slurm: checking that every node sees the data folder ${ctx.dataDir}`);
  await checkSharedFolder(ctx.dataDir, { ...slurm, signal: ctx.signal });
  let priorRows: string | undefined;
  if (options.priorRows) {
    priorRows = join(ctx.workDir, 'sessions', `prior.a${attempt}.duckdb`);
    mkdirSync(join(ctx.workDir, 'sessions'), { recursive: true });
    rmSync(priorRows, { force: true });
    await journal.exportTo(priorRows);
  }
  const jobs = work.map((w, i) => {
    const spec = writeSessionJobSpec({
      config: ctx.config,
      stageId: ctx.id,
      key: ctx.key,
      inputs: ctx.inputs,
      workDir: ctx.workDir,
      dataDir: ctx.dataDir,
      pipelineDir: ctx.pipelineDir,
      pipelineFile: ctx.pipelineFile,
      session: w.session,
      attempt,
      work: w,
      preflight: true,
      kind: ctx.kind,
      params: ctx.params,
      last: (options.last ?? true) && i === work.length - 1,
      ...(options.arms ? { arms: options.arms } : {}),
      ...(priorRows ? { priorRows } : {}),
    });
    return {
      name: `benchgraph-S${w.session}-a${attempt}`,
      argv: cliArgv(['session-job', spec]),
      cwd: ctx.pipelineDir,
      // A session measures its host: another session beside it would be its noise, and a kernel
      // setting one session changes (commit-diff's overlay redirect_dir) would reach the other.
      exclusive: true,
    };
  });
  ctx.log(`slurm: submitting ${jobs.length} session job(s): ${jobs.map((j) => j.name).join(', ')}`);
  let latest = new Map<string, SlurmJobProgress>();
  const outcomes = await runSlurmJobs(jobs, {
    ...slurm,
    nodelist: ex.nodelist,
    outputDir: join(ctx.workDir, 'jobs'),
    signal: ctx.signal,
    onProgress: (p) => {
      ctx.log(`slurm: ${p.name} (job ${p.jobId}) ${p.state}${p.node ? ` on ${p.node}` : ''}${p.reason && p.state === 'pending' ? ` (${p.reason})` : ''}`);
      latest = latestByJob(latest, p);
      // The sum of every job's state: redrawn on a terminal, else one line per change.
      (ctx.interactive && ctx.progress ? ctx.progress : ctx.log)(`slurm ${formatJobsLine(latest)}`);
    },
  });
  const records: SessionRecord[] = [];
  for (const w of work) {
    const files = sessionJobFiles(ctx.workDir, w.session, attempt);
    if (existsSync(files.journal) && (await journalHasSamples(files.journal))) await journal.mergeFrom(files.journal);
    if (!existsSync(files.record)) continue;
    const record = JSON.parse(readFileSync(files.record, 'utf8')) as SessionRecord;
    records.push(record);
    if (options.recordsDir) writeFileSync(join(options.recordsDir, `S${w.session}.a${attempt}.json`), JSON.stringify(record) + '\n');
  }
  for (const o of outcomes) {
    const delay = o.startDelayMs === null ? 'never started' : `started ${o.startDelayMs} ms after submission`;
    ctx.log(`slurm: ${o.name} ${o.state}${o.node ? ` on ${o.node}` : ''}, ${delay}`);
  }
  const failed = outcomes.filter((o) => o.state !== 'done');
  if (failed.length) {
    throw new CheckFailed(
      `${failed.length} of ${outcomes.length} session job(s) did not complete; their complete rounds are kept and the next pipeline run resubmits only the incomplete sessions`,
      failed.map(
        (o) =>
          `${o.name}: ${o.state}${o.node ? ` on ${o.node}` : ''}${o.exitCode !== null ? `, exit ${o.exitCode}` : ''}${o.reason ? ` (${o.reason})` : ''}: ${tail(o.stderrFile)}`,
      ),
    );
  }
  return { records, outcomes };
}

function tail(file: string): string {
  if (!existsSync(file)) return 'no stderr';
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  return lines.slice(-3).join(' | ') || 'empty stderr';
}
