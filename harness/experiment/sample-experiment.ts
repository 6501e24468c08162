// The sampling of an experiment on the model: units × arms × conditions, in
// design.sessions independent sessions of balanced, seeded rounds, every
// visit journaled in the one sample table as it ends. What an experiment
// brings is its arm adapter (ExperimentAdapter): how a session starts and
// stops what it needs, and how one visit of one arm on one unit runs and
// becomes rows (one per condition). Resume, discarding incomplete rounds,
// the session records (host noise), progress with an ETA and the journal's
// export come from here. With executor.kind slurm, each session with work
// left runs as one job elsewhere (RemoteSessions) and its rows are merged here.
// With design.adaptive (adaptive-plan.ts), min_sessions run as planned and
// then sessions are added one at a time, over only the undecided
// comparisons' units and arms, until all are decided or max_sessions ran;
// the decisions go to outputDir/adaptive.json.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageContext } from '../contract/stage.js';
import type { SessionRecord } from '../contract/exchange-files.js';
import type { SampleColumn, SampleRow } from '../db/sample-columns.js';
import { SampleJournal } from '../db/sample-journal.js';
import { UserError } from '../errors.js';
import { adaptiveDesign, adaptiveRecord, adaptiveStep, type AdaptiveDesign, type AdaptiveRow } from './adaptive-plan.js';
import { confirmSessionWork } from './confirm-work.js';
import { formatProgress } from './progress-line.js';
import { addRounds, RunEta } from './run-eta.js';
import { runRounds, type ArmVisit } from './run-rounds.js';
import { remainingWork, type SessionWork } from './session-plan.js';
import { startSessionRecord } from './session-record.js';
import { sessionSteps, type RoundStep } from './session-steps.js';
import { sessionCanary } from './host-canary.js';

/** One visit as the adapter sees it: the round runner's visit and the stage's attempt. */
export type AdapterVisit = ArmVisit & { attempt: number };

export interface OpenedExperimentSession {
  /** Runs one visit and returns its rows (one per condition), failures included. */
  visit(v: AdapterVisit): Promise<SampleRow[]>;
  /** Called when the session's rounds move on to a unit (e.g. set an effect row up), and when they leave it. */
  beginUnit?(unit: string): Promise<void>;
  endUnit?(unit: string): Promise<void>;
  /** Called after each complete round. */
  afterRound?(step: RoundStep): void;
  /** After the session's last round, before close (e.g. a once-per-run step in the last session). */
  finish?(last: boolean): Promise<void>;
  close(): Promise<void>;
}

/** The journal as a session sees it. */
export interface SessionJournal {
  append(rows: readonly SampleRow[]): Promise<void>;
  rows(): Promise<SampleRow[]>;
}

export interface ExperimentAdapter {
  units: readonly string[];
  arms: readonly string[];
  /** The experiment's conditions (cold/warm, initial/incremental; ['none'] for none). */
  conditions: readonly string[];
  /** The experiment's declared measure and sweep columns. */
  columns?: readonly SampleColumn[];
  /** The rounds of a session; default: per unit its warmup rounds, then its remaining formal rounds. */
  steps?(work: SessionWork): RoundStep[];
  /** Starts what one session needs (engines, folders); `journal` takes rows made outside the visits (a step after the rounds). */
  openSession(session: number, attempt: number, journal: SessionJournal): Promise<OpenedExperimentSession>;
  /** Folders whose processes are ours, not the host's other load. */
  ourFolders: readonly string[];
  /** True when the adapter has work left even when every round is complete (a step after sampling). */
  pendingAfterRounds?(rows: readonly SampleRow[]): boolean;
}

export interface SampledExperiment {
  formal: number;
  failed: number;
  sessions: SessionRecord[];
}

/** Where a session's rows go: the stage's journal in process, a session file of its own in a job. */
export interface RowSink {
  append(row: SampleRow): Promise<void>;
  rows(): Promise<SampleRow[]>;
}

/**
 * Runs sessions elsewhere (one Slurm job each, executors/slurm-sessions.ts):
 * merges their rows into `journal` by launch id and writes each finished
 * session's record into `recordsDir`; throws, naming them, when some did not complete.
 */
export type RemoteSessions = (
  ctx: StageContext,
  journal: SampleJournal,
  sessions: readonly SessionWork[],
  attempt: number,
  recordsDir: string,
) => Promise<void>;

/** Launch counts of a run's progress line and its ETA, shared by its sessions. */
interface Progress {
  total: number;
  done: number;
  failures: number;
  eta: RunEta;
}

/** The launches of one session by cell (arm x condition): every step visits every arm once, each visit makes a row per condition. */
function sessionLaunches(ctx: StageContext, adapter: ExperimentAdapter, w: SessionWork): Map<string, number> {
  const out = new Map<string, number>();
  for (const _ of stepsOfSession(ctx, adapter, w)) addRounds(out, adapter.arms, adapter.conditions, 1);
  return out;
}

/** The rounds of one session as the adapter lays them out (none when only a step after the rounds is left). */
export function stepsOfSession(ctx: StageContext, adapter: ExperimentAdapter, w: SessionWork): RoundStep[] {
  const design = ctx.config.design;
  return w.cohorts.length === 0
    ? []
    : (adapter.steps?.(w) ?? sessionSteps(w, { preflight: 0, warmupRounds: design.warmup_rounds, formalRounds: design.rounds, units: adapter.units }));
}

/** Samples every session with work left into workDir/samples.duckdb (in process, or through `remote` when executor.kind is slurm); exports it to outputDir/samples.duckdb. */
export async function sampleExperiment(ctx: StageContext, adapter: ExperimentAdapter, remote?: RemoteSessions): Promise<SampledExperiment> {
  const design = ctx.config.design;
  const adaptive = adaptiveDesign((design as unknown as Record<string, unknown>)['adaptive']);
  if (adaptive && ctx.config.executor.kind === 'slurm') {
    throw new UserError(
      'design.adaptive decides between sessions in this process',
      { file: ctx.pipelineFile, key: 'design.adaptive' },
      'run it with --executor local',
    );
  }
  const plannedSessions = adaptive ? adaptive.minSessions : design.sessions;
  const journal = await SampleJournal.open(join(ctx.workDir, 'samples.duckdb'), adapter.columns ?? []);
  const recordsDir = join(ctx.workDir, 'session-records');
  mkdirSync(recordsDir, { recursive: true });
  try {
    const attempt = (await journal.lastAttempt()) + 1;
    const units = new Set(adapter.units);
    const work = remainingWork(
      (await journal.formalRows()).filter((r) => units.has(r.cohort)),
      { sessions: plannedSessions, rounds: design.rounds, cohorts: adapter.units, paths: adapter.arms, states: adapter.conditions },
    );
    let complete = 0;
    for (const w of work)
      for (const c of w.cohorts) {
        complete += c.completeRounds;
        if (c.partialRounds.length) {
          ctx.log(`session ${w.session} ${c.cohort}: discarding incomplete round(s) ${c.partialRounds.join(', ')} of an interrupted run`);
          await journal.discardRounds(w.session, c.cohort, c.partialRounds);
        }
        if (c.completeRounds) ctx.log(`session ${w.session} ${c.cohort}: ${c.completeRounds} formal rounds already complete, ${c.rounds.length} to go`);
      }
    const after = adapter.pendingAfterRounds?.(await journal.rows()) ?? false;
    // Every session with rounds left; and the last one alone when only a step after the rounds is left.
    const sessions: SessionWork[] = work.length ? work : after && !adaptive ? [{ session: design.sessions, cohorts: [] }] : [];
    if (ctx.config.executor.kind === 'slurm' && sessions.length) {
      if (!remote)
        throw new UserError(
          `stage ${ctx.id} (${ctx.kind}) cannot run its sessions on Slurm`,
          { file: ctx.pipelineFile, key: 'executor.kind' },
          'run it with --executor local',
        );
      await remote(ctx, journal, sessions, attempt, recordsDir);
    } else {
      const total = sessions.reduce((n, w) => n + stepsOfSession(ctx, adapter, w).length * adapter.arms.length * adapter.conditions.length, 0);
      // The ETA covers every session left, weighted by each (arm, condition)'s launches so far.
      const eta = new RunEta(
        sessions.map((w) => ({ session: w.session, launches: sessionLaunches(ctx, adapter, w) })),
        Date.now,
      );
      const progress: Progress = { total, done: 0, failures: 0, eta };
      for (const [i, w] of sessions.entries()) {
        eta.startSession(w.session);
        const record = await runSession(ctx, adapter, journal, w, attempt, !adaptive && i === sessions.length - 1, progress);
        eta.endSession();
        writeFileSync(join(recordsDir, `S${w.session}.a${attempt}.json`), JSON.stringify(record) + '\n');
      }
      if (adaptive) await addSessions(ctx, adapter, journal, adaptive, plannedSessions, attempt, recordsDir, progress);
    }
    await journal.exportTo(join(ctx.outputDir, 'samples.duckdb'));
    const counts = await journal.counts();
    ctx.log(
      `${counts.formal} formal launches, ${counts.failed} failures, in ${adaptive ? 'adaptive' : design.sessions} session(s)${complete ? ` (${complete} rounds kept from an earlier attempt)` : ''}`,
    );
    const records = readdirSync(recordsDir)
      .map((f) => JSON.parse(readFileSync(join(recordsDir, f), 'utf8')) as SessionRecord)
      .sort((x, y) => x.session - y.session || x.attempt - y.attempt);
    writeFileSync(join(ctx.observationsDir, 'sessions.json'), JSON.stringify(records, null, 2) + '\n');
    return { ...counts, sessions: records };
  } finally {
    await journal.close();
  }
}

/** design.adaptive: after the planned sessions, one session at a time for the undecided comparisons; writes adaptive.json. */
async function addSessions(
  ctx: StageContext,
  adapter: ExperimentAdapter,
  journal: SampleJournal,
  adaptive: AdaptiveDesign,
  plannedSessions: number,
  attempt: number,
  recordsDir: string,
  progress: Progress,
): Promise<void> {
  const dims = { units: adapter.units, arms: adapter.arms, conditions: adapter.conditions };
  const rows = async (): Promise<AdaptiveRow[]> => (await journal.rows()) as unknown as AdaptiveRow[];
  let done = plannedSessions;
  let step = adaptiveStep(await rows(), dims, adaptive, done);
  while (step.next !== null) {
    const visits = step.visits;
    const arms = adapter.arms.filter((a) => visits.some((v) => v.paths.includes(a)));
    // Every visited unit runs the union of the arms, so a round is complete over the same arms everywhere.
    const wide = visits.map((v) => ({ cohort: v.cohort, paths: arms }));
    const w = confirmSessionWork(await journal.formalRows(), done, wide, { rounds: ctx.config.design.rounds, states: adapter.conditions });
    const open = step.comparisons.filter((c) => !c.decision.stop).length;
    ctx.log(
      `adaptive: ${open} comparison(s) undecided after ${done} session(s); session ${step.next} over ${visits.map((v) => v.cohort).join(', ')}: ${arms.join(', ')}`,
    );
    if (w) {
      for (const c of w.cohorts) {
        if (c.partialRounds.length) {
          ctx.log(`session ${w.session} ${c.cohort}: discarding incomplete round(s) ${c.partialRounds.join(', ')} of an interrupted run`);
          await journal.discardRounds(w.session, c.cohort, c.partialRounds);
        }
      }
      progress.total += stepsOfSession(ctx, adapter, w).length * arms.length * adapter.conditions.length;
      progress.eta.startSession(w.session);
      const record = await runSession(ctx, adapter, journal, w, attempt, false, progress, arms);
      progress.eta.endSession();
      writeFileSync(join(recordsDir, `S${w.session}.a${attempt}.json`), JSON.stringify(record) + '\n');
    }
    done = step.next;
    step = adaptiveStep(await rows(), dims, adaptive, done);
  }
  const undecided = step.comparisons.filter((c) => !c.decision.stop || c.decision.verdict === 'undecided').length;
  ctx.log(`adaptive: stopped after ${done} session(s), ${step.comparisons.length - undecided} of ${step.comparisons.length} comparison(s) decided`);
  writeFileSync(join(ctx.outputDir, 'adaptive.json'), JSON.stringify(adaptiveRecord(step, adaptive, done), null, 2) + '\n');
  if (adapter.pendingAfterRounds?.(await journal.rows())) {
    progress.eta.startSession(done);
    const record = await runSession(ctx, adapter, journal, { session: done, cohorts: [] }, attempt, true, progress);
    progress.eta.endSession();
    writeFileSync(join(recordsDir, `S${done}.a${attempt}.json`), JSON.stringify(record) + '\n');
  }
}

/** One session of a Slurm job: exactly that session, its rows into `sink`; `last` when it is the run's last session (a step after the rounds). */
export async function sampleOneSession(
  ctx: StageContext,
  adapter: ExperimentAdapter,
  sink: RowSink,
  w: SessionWork,
  attempt: number,
  last: boolean,
): Promise<SessionRecord> {
  const total = stepsOfSession(ctx, adapter, w).length * adapter.arms.length * adapter.conditions.length;
  const eta = new RunEta([{ session: w.session, launches: sessionLaunches(ctx, adapter, w) }], Date.now);
  eta.startSession(w.session);
  return runSession(ctx, adapter, sink, w, attempt, last, { total, done: 0, failures: 0, eta });
}

async function runSession(
  ctx: StageContext,
  adapter: ExperimentAdapter,
  journal: RowSink,
  w: SessionWork,
  attempt: number,
  last: boolean,
  progress: Progress,
  arms: readonly string[] = adapter.arms,
): Promise<SessionRecord> {
  const design = ctx.config.design;
  const closeRecord = await startSessionRecord(w.session, attempt, adapter.ourFolders, { dir: ctx.dataDir, probeMib: design.disk_probe_mb });
  const canary = await sessionCanary(ctx, w.session, attempt, journal); // host reference before the first launch
  const steps = stepsOfSession(ctx, adapter, w);
  const opened = await adapter.openSession(w.session, attempt, {
    append: async (rows) => {
      for (const r of rows) await journal.append(r);
    },
    rows: () => journal.rows(),
  });
  let unit: string | null = null;
  let line = '';
  try {
    await runRounds({
      seed: design.seed,
      session: w.session,
      order: design.order,
      arms,
      steps,
      signal: ctx.signal,
      visit: async (v) => {
        if (v.unit !== unit) {
          if (unit !== null) await opened.endUnit?.(unit);
          unit = v.unit;
          await opened.beginUnit?.(unit);
        }
        const rows = await opened.visit({ ...v, attempt });
        // A visit cut short by a signal is not a sample: its round is incomplete and runs again.
        if (ctx.signal.aborted) throw ctx.signal.reason as Error;
        for (const row of rows) {
          await journal.append(row);
          if (row['ok'] !== true) progress.failures++;
          // A visit's time goes to its first row's cell; every visit has the same conditions, so the sum per visit is what the ETA weighs.
          progress.eta.launched(String(row['path']), String(row['state']));
        }
        progress.done += rows.length;
        const step = steps.find((s) => s.unit === v.unit && s.phase === v.phase)!;
        line =
          `session ${w.session}/${design.sessions} ` +
          formatProgress({
            cohort: v.unit,
            phase: v.phase,
            round: v.round,
            rounds: step.of,
            launchesDone: progress.done,
            launchesTotal: progress.total,
            failures: progress.failures,
            eta: progress.eta.estimate(),
          });
        ctx.progress?.(line);
      },
      afterRound: (step) => {
        opened.afterRound?.(step);
        ctx.log(line); // one plain line per round
      },
    });
    if (unit !== null) await opened.endUnit?.(unit);
    await opened.finish?.(last);
  } finally {
    await opened.close();
  }
  return { ...(await closeRecord()), ...canary() };
}
