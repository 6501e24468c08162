// The sampling of an experiment on the model: units × arms × conditions, in
// design.sessions independent sessions of balanced, seeded rounds, every
// visit journaled in the one sample table as it ends. What an experiment
// brings is its arm adapter (ExperimentAdapter): how a session starts and
// stops what it needs, and how one visit of one arm on one unit runs and
// becomes rows (one per condition). Resume, discarding incomplete rounds,
// the session records (host noise), progress with an ETA and the journal's
// export come from here. With executor.kind slurm, each session with work
// left runs as one job elsewhere and its rows are merged here.
// Sessions after the planned ones come from one hook (AddedSessions):
// design.adaptive (adaptive-plan.ts) runs min_sessions as planned and then
// adds sessions one at a time, over only the undecided comparisons' units and
// arms, until all are decided or max_sessions ran (adaptive.json); an adapter
// may bring its own (the default experiment's design.confirm: one session for
// the differences the planned ones leave undecided, confirm.json). Where a
// session runs (here, or one Slurm job each) is the session executor's
// choice (session-executor-port.ts), made in one place for every experiment.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageContext } from '../contract/stage.js';
import type { SessionRecord } from '../contract/exchange-files.js';
import type { SampleColumn } from '../db/sample-columns.js';
import type { SampleRow } from '../db/sample-row.js';
import { SampleJournal } from '../db/sample-journal.js';
import { UserError } from '../errors.js';
import { adaptiveDesign, adaptiveRecord, adaptiveStep, type AdaptiveDesign, type AdaptiveRow } from './adaptive-plan.js';
import { confirmSessionWork } from './confirm-work.js';
import { formatProgress } from './progress-line.js';
import { addRounds, RunEta } from './run-eta.js';
import { sessionEta } from './eta-check.js';
import { runRounds, type ArmVisit } from './run-rounds.js';
import { remainingWork, type SessionWork } from './session-plan.js';
import { startSessionRecord } from './session-record.js';
import { sessionSteps, type RoundStep } from './session-steps.js';
import { sessionCanary } from './host-canary.js';
import type { RunningServices } from '../contract/running-services.js';
import type { PhaseMark } from '../launch/launch-types.js';
import type { ConfirmVisit } from '../analysis/undecided-differences.js';
import { sessionExecutorOf, type RemoteOptions } from './session-executor-port.js';

/** One visit as the adapter sees it: the round runner's visit and the stage's attempt. */
export type AdapterVisit = ArmVisit & { attempt: number };

export interface OpenedExperimentSession<Extra extends object = {}> {
  /** Runs one visit and returns its rows (one per condition), failures included. */
  visit(v: AdapterVisit): Promise<SampleRow<Extra>[]>;
  /** Called when the session's rounds move on to a unit (e.g. set an effect row up), and when they leave it. */
  beginUnit?(unit: string): Promise<void>;
  endUnit?(unit: string): Promise<void>;
  /** Called after each complete round. */
  afterRound?(step: RoundStep): void;
  /** After the session's last round, before close (e.g. a once-per-run step in the last session). */
  finish?(last: boolean): Promise<void>;
  /** The phase marks the launch of a row printed (journaled with it); absent: none. */
  phasesOf?(row: SampleRow<Extra>): readonly PhaseMark[];
  /** The session's Docker engine socket, for the session record's host fingerprint; absent: none. */
  dockerSocket?(): string | null;
  close(): Promise<void>;
}

/** The journal as a session sees it. */
export interface SessionJournal<Extra extends object = {}> {
  append(rows: readonly SampleRow<Extra>[]): Promise<void>;
  rows(): Promise<SampleRow<Extra>[]>;
  /** Marks journaled launches failed after the fact (a pair's teardown failed). */
  markFailed(launchIds: readonly string[], reason: string): Promise<void>;
}

/** What the driver hands a session when it opens. */
export interface SessionSetup {
  /** The services this session launches against: the stage's for the run's first session, started afresh for every later one (adapter.services). */
  services: RunningServices;
  /** The arms each unit visits in this session (an added session visits only those of undecided comparisons). */
  arms: Readonly<Record<string, readonly string[]>>;
}

/**
 * Sessions added after the planned ones, decided from the journal alone, so
 * a resumed run decides the same and never adds a session twice.
 * design.adaptive is one (adaptiveSessions); an adapter may bring another (design.confirm).
 */
export interface AddedSessions {
  /** Sessions run as planned before any is added. */
  planned: number;
  /** After `done` sessions: the next session and what it visits, or null to stop. */
  next(journal: SampleJournal, done: number): Promise<AddedSession | null>;
  /** Writes the decision record (adaptive.json, confirm.json) once no session is left to add. */
  finish(journal: SampleJournal, done: number): Promise<void>;
}

export interface AddedSession {
  session: number;
  /** Per visited unit, its arms. */
  visits: readonly ConfirmVisit[];
  /** Every visited unit runs the union of the visits' arms (adaptive), or each its own (confirm). */
  unionArms: boolean;
  /** The log line saying why it is added. */
  note: string;
}

/** An experiment's arm adapter; `Extra` types the columns it declares (`columns`) on its rows. */
export interface ExperimentAdapter<Extra extends object = {}> {
  units: readonly string[];
  arms: readonly string[];
  /** The experiment's conditions (cold/warm, initial/incremental; ['none'] for none). */
  conditions: readonly string[];
  /** The experiment's declared measure and sweep columns. */
  columns?: readonly SampleColumn[];
  /** The rounds of a session; default: every unit's rounds interleaved (session-steps.ts). */
  steps?(work: SessionWork): RoundStep[];
  /**
   * True: each unit has a setup its session runs once (beginUnit: an effect row's folder and processes, a checkpointed
   * app), so its rounds run in one block instead of interleaved with the other units'. Its comparisons are between arms
   * within a unit; a comparison along the unit factor would pair blocks minutes apart.
   */
  unitSetup?: boolean;
  /** Starts what one session needs (engines, folders); `journal` takes rows made outside the visits (a step after the rounds). */
  openSession(session: number, attempt: number, journal: SessionJournal<Extra>, setup: SessionSetup): Promise<OpenedExperimentSession<Extra>>;
  /** Folders whose processes are ours, not the host's other load. */
  ourFolders: readonly string[];
  /** True when the adapter has work left even when every round is complete (a step after sampling). */
  pendingAfterRounds?(rows: readonly SampleRow<Extra>[]): boolean;
  /** True: the stage's services, started afresh for every session after the run's first (a Slurm job starts them on its node). */
  services?: boolean;
  /** Preflight rounds per unit run by every session after the run's first (the first's preflight is the warmup stage's); absent: none. */
  preflight?: number;
  /** The adapter's own added sessions when design.adaptive is off (the default experiment's design.confirm); null: none. */
  addedSessions?(ctx: StageContext): AddedSessions | null;
  /** Checks this host before a session job starts anything (a node lacking what the arms need); throws naming what is missing. */
  checkHost?(): void;
  /** Launches (rows per condition) one visit of an arm makes: a burst arm's N; absent: 1. For the progress line and the ETA. */
  launchesPerVisit?(arm: string): number;
}

export interface SampledExperiment {
  formal: number;
  failed: number;
  sessions: SessionRecord[];
  /** The stage's start that ran (from 1). */
  attempt: number;
  /** Hosts that journaled launches. */
  hosts: string[];
  /** Sessions added after the planned ones (design.adaptive, design.confirm). */
  added: number;
}

/** Where a session's rows go: the stage's journal in process, a session file of its own in a job. */
export interface RowSink {
  append(row: SampleRow, phases?: readonly PhaseMark[]): Promise<void>;
  rows(): Promise<SampleRow[]>;
  markFailed(launchIds: readonly string[], reason: string): Promise<void>;
}

export type { RemoteOptions };

/** Launch counts of a run's progress line and its ETA, shared by its sessions. */
interface Progress {
  /** Sessions planned (the progress line's `session 2/3`; an added session counts itself). */
  sessions: number;
  total: number;
  done: number;
  failures: number;
  eta: RunEta;
}

/** How one session runs. */
export interface SessionRunOptions {
  /** Not the first session of this process's run: it runs the adapter's preflight (and its services are fresh). */
  fresh: boolean;
  /** The run's last session (an adapter's step after the rounds runs there). */
  last: boolean;
  /** The arms of each unit when they are not every arm (an added session). */
  arms?: Readonly<Record<string, readonly string[]>>;
  /** The services the session launches against. */
  services: () => Promise<RunningServices>;
}

const armsFor = (adapter: ExperimentAdapter, arms: SessionRunOptions['arms'], unit: string): readonly string[] => arms?.[unit] ?? adapter.arms;

/** The rounds of one session as the adapter lays them out (none when only a step after the rounds is left). */
export function stepsOfSession(
  ctx: StageContext,
  adapter: ExperimentAdapter,
  w: SessionWork,
  o: { fresh?: boolean; arms?: SessionRunOptions['arms'] } = {},
): RoundStep[] {
  const design = ctx.config.design;
  if (w.cohorts.length === 0) return [];
  if (adapter.steps) return adapter.steps(w);
  // Preflight covers every unit the session visits (every unit, unless its arms are given).
  const units = o.arms ? adapter.units.filter((u) => o.arms![u] !== undefined) : adapter.units;
  return sessionSteps(w, {
    preflight: o.fresh ? (adapter.preflight ?? 0) : 0,
    warmupRounds: design.warmup_rounds,
    formalRounds: design.rounds,
    units,
    seed: design.seed,
    interleaveUnits: adapter.unitSetup !== true,
  });
}

/** The launches of one session by cell (arm x condition): every step visits each of its unit's arms once, each visit makes a row per condition. */
function sessionLaunches(
  ctx: StageContext,
  adapter: ExperimentAdapter,
  w: SessionWork,
  o: { fresh?: boolean; arms?: SessionRunOptions['arms'] },
): Map<string, number> {
  const out = new Map<string, number>();
  for (const step of stepsOfSession(ctx, adapter, w, o))
    for (const arm of armsFor(adapter, o.arms, step.unit)) addRounds(out, [arm], adapter.conditions, perVisit(adapter, arm));
  return out;
}

const perVisit = (adapter: ExperimentAdapter, arm: string): number => adapter.launchesPerVisit?.(arm) ?? 1;
const visitLaunches = (adapter: ExperimentAdapter, arms: readonly string[]): number => arms.reduce((n, arm) => n + perVisit(adapter, arm), 0);

function launchesOf(ctx: StageContext, adapter: ExperimentAdapter, w: SessionWork, o: { fresh?: boolean; arms?: SessionRunOptions['arms'] }): number {
  return stepsOfSession(ctx, adapter, w, o).reduce((n, step) => n + visitLaunches(adapter, armsFor(adapter, o.arms, step.unit)) * adapter.conditions.length, 0);
}

/** design.adaptive as the driver's added sessions: min_sessions planned, then one at a time over the undecided comparisons; adaptive.json at the end. */
export function adaptiveSessions(ctx: StageContext, adapter: ExperimentAdapter, adaptive: AdaptiveDesign): AddedSessions {
  const dims = { units: adapter.units, arms: adapter.arms, conditions: adapter.conditions };
  // An added session runs, in every visited unit, the arms of its undecided comparisons, every condition, design.rounds rounds.
  const nextLaunches = (visits: readonly ConfirmVisit[]): number =>
    visits.reduce((n, v) => n + visitLaunches(adapter, v.paths), 0) * adapter.conditions.length * ctx.config.design.rounds;
  const step = async (journal: SampleJournal, done: number) =>
    adaptiveStep((await journal.rows()) as unknown as AdaptiveRow[], dims, adaptive, done, nextLaunches);
  return {
    planned: adaptive.minSessions,
    next: async (journal, done) => {
      const s = await step(journal, done);
      if (s.next === null) return null;
      const arms = adapter.arms.filter((a) => s.visits.some((v) => v.paths.includes(a)));
      const open = s.comparisons.filter((c) => !c.decision.stop).length;
      return {
        session: s.next,
        visits: s.visits,
        unionArms: false,
        note: `adaptive: ${open} comparison(s) undecided after ${done} session(s); session ${s.next} over ${s.visits.map((v) => v.cohort).join(', ')}: ${arms.join(', ')}`,
      };
    },
    finish: async (journal, done) => {
      const s = await step(journal, done);
      const undecided = s.comparisons.filter((c) => !c.decision.stop || c.decision.verdict === 'undecided').length;
      const why = {
        decided: 'every comparison decided',
        max_sessions: 'max_sessions reached',
        max_launches: 'max_launches would be passed',
        max_minutes: 'max_minutes would be passed',
      }[s.stopped ?? 'decided'];
      ctx.log(
        `adaptive: stopped after ${done} session(s) (${why}), ${s.comparisons.length - undecided} of ${s.comparisons.length} comparison(s) decided, ${s.spent.launches} formal launches`,
      );
      writeFileSync(join(ctx.outputDir, 'adaptive.json'), JSON.stringify(adaptiveRecord(s, adaptive, done), null, 2) + '\n');
    },
  };
}

/** The sink a session writes through: the journal, with a visit's phase marks. */
const journalSink = (journal: SampleJournal): RowSink => ({
  append: (row, phases) => journal.append(row, phases ?? []),
  rows: () => journal.rows(),
  markFailed: (ids, reason) => journal.markFailed(ids, reason),
});

async function discardPartial(ctx: StageContext, journal: SampleJournal, w: SessionWork): Promise<number> {
  let complete = 0;
  for (const c of w.cohorts) {
    complete += c.completeRounds;
    if (c.partialRounds.length) {
      ctx.log(`session ${w.session} ${c.cohort}: discarding incomplete round(s) ${c.partialRounds.join(', ')} of an interrupted run`);
      await journal.discardRounds(w.session, c.cohort, c.partialRounds);
    }
    if (c.completeRounds) ctx.log(`session ${w.session} ${c.cohort}: ${c.completeRounds} formal rounds already complete, ${c.rounds.length} to go`);
  }
  return complete;
}

/** Samples every session with work left into workDir/samples.duckdb (here, or where the session executor puts them); exports it to outputDir/samples.duckdb. */
export async function sampleExperiment(ctx: StageContext, adapter: ExperimentAdapter): Promise<SampledExperiment> {
  const design = ctx.config.design;
  const adaptive = adaptiveDesign((design as unknown as Record<string, unknown>)['adaptive'], ctx.config.rules);
  const own = adapter.addedSessions?.(ctx) ?? null;
  if (adaptive && own) {
    throw new UserError(
      'design.confirm and design.adaptive are both on: adaptive already adds sessions for the undecided comparisons',
      { file: ctx.pipelineFile, key: 'design.confirm' },
      'remove design.confirm (or set it to false)',
    );
  }
  const added = adaptive ? adaptiveSessions(ctx, adapter, adaptive) : own;
  const plannedSessions = added?.planned ?? design.sessions;
  const executor = sessionExecutorOf(ctx);
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
    for (const w of work) complete += await discardPartial(ctx, journal, w);
    const after = adapter.pendingAfterRounds?.(await journal.rows()) ?? false;
    // Every session with rounds left; and the last one alone when only a step after the rounds is left.
    const sessions: SessionWork[] = work.length ? work : after && !added ? [{ session: design.sessions, cohorts: [] }] : [];
    // The first session this process runs has the services the engine started (right after the warmup stage's preflight); every later one starts them afresh and runs its own preflight.
    let first = true;
    const opts = (o: RemoteOptions) => ({ fresh: !first, arms: o.arms });
    const total = sessions.reduce((n, w, i) => n + launchesOf(ctx, adapter, w, { fresh: i > 0 }), 0);
    // The ETA covers every session left, weighted by each (arm, condition)'s launches so far.
    const eta = new RunEta(
      sessions.map((w, i) => ({ session: w.session, launches: sessionLaunches(ctx, adapter, w, { fresh: i > 0 }) })),
      Date.now,
    );
    const progress: Progress = { sessions: plannedSessions, total, done: 0, failures: 0, eta };
    const here = async (w: SessionWork, o: RemoteOptions): Promise<void> => {
      const { fresh } = opts(o);
      first = false;
      eta.startSession(w.session); // before its services restart: their start is part of the session's overhead
      const services = async (): Promise<RunningServices> => (fresh && adapter.services ? await ctx.restartServices() : ctx.services);
      const record = await runSession(
        ctx,
        adapter,
        journalSink(journal),
        w,
        attempt,
        { fresh, last: o.last ?? false, services, ...(o.arms ? { arms: o.arms } : {}) },
        progress,
      );
      // The ETA the session showed last goes into its record, so the run's real remaining time can be compared with it afterwards (eta-check.ts).
      const shown = sessionEta(eta.endSession());
      writeFileSync(join(recordsDir, `S${w.session}.a${attempt}.json`), JSON.stringify(shown ? { ...record, eta: shown } : record) + '\n');
    };
    const run = (list: readonly SessionWork[], o: RemoteOptions): Promise<void> =>
      list.length ? executor.run({ ctx, journal, sessions: list, attempt, recordsDir, options: o, here }) : Promise.resolve();
    await run(sessions, { last: !added });
    let addedCount = 0;
    if (added) {
      let done = plannedSessions;
      for (let next = await added.next(journal, done); next !== null; next = await added.next(journal, done)) {
        ctx.log(next.note);
        const union = adapter.arms.filter((a) => next!.visits.some((v) => v.paths.includes(a)));
        const visits = next.visits.map((v) => ({ cohort: v.cohort, paths: next!.unionArms ? union : v.paths }));
        const arms = Object.fromEntries(visits.map((v) => [v.cohort, v.paths]));
        const w = confirmSessionWork(await journal.formalRows(), next.session - 1, visits, { rounds: design.rounds, states: adapter.conditions });
        if (w) {
          await discardPartial(ctx, journal, w);
          progress.total += launchesOf(ctx, adapter, w, { fresh: !first, arms });
          eta.addSession({ session: w.session, launches: sessionLaunches(ctx, adapter, w, { fresh: !first, arms }) });
          await run([w], { arms, last: false });
        }
        addedCount++;
        done = next.session;
      }
      await added.finish(journal, done);
      if (adapter.pendingAfterRounds?.(await journal.rows())) await run([{ session: done, cohorts: [] }], { last: true });
    }
    await journal.exportTo(join(ctx.outputDir, 'samples.duckdb'));
    const counts = await journal.counts();
    ctx.log(
      `${counts.formal} formal launches, ${counts.failed} failures, in ${plannedSessions} session(s)${addedCount ? ` and ${addedCount} added` : ''}${complete ? ` (${complete} rounds kept from an earlier attempt)` : ''}`,
    );
    const records = readdirSync(recordsDir)
      .map((f) => JSON.parse(readFileSync(join(recordsDir, f), 'utf8')) as SessionRecord)
      .sort((x, y) => x.session - y.session || x.attempt - y.attempt);
    writeFileSync(join(ctx.observationsDir, 'sessions.json'), JSON.stringify(records, null, 2) + '\n');
    return { ...counts, sessions: records, attempt, hosts: await journal.hosts(), added: addedCount };
  } finally {
    await journal.close();
  }
}

/** One session of a session job: exactly that session, its rows into `sink`, against `services` started on the job's node. */
export async function sampleOneSession(
  ctx: StageContext,
  adapter: ExperimentAdapter,
  sink: RowSink,
  w: SessionWork,
  attempt: number,
  o: { last: boolean; fresh: boolean; arms?: SessionRunOptions['arms']; services: RunningServices },
): Promise<SessionRecord> {
  const shape = { fresh: o.fresh, ...(o.arms ? { arms: o.arms } : {}) };
  const eta = new RunEta([{ session: w.session, launches: sessionLaunches(ctx, adapter, w, shape) }], Date.now);
  eta.startSession(w.session);
  const progress = { sessions: ctx.config.design.sessions, total: launchesOf(ctx, adapter, w, shape), done: 0, failures: 0, eta };
  return runSession(ctx, adapter, sink, w, attempt, { ...shape, last: o.last, services: async () => o.services }, progress);
}

async function runSession(
  ctx: StageContext,
  adapter: ExperimentAdapter,
  journal: RowSink,
  w: SessionWork,
  attempt: number,
  o: SessionRunOptions,
  progress: Progress,
): Promise<SessionRecord> {
  const design = ctx.config.design;
  const services = await o.services();
  const closeRecord = await startSessionRecord(w.session, attempt, adapter.ourFolders, { dir: ctx.dataDir, probeMib: design.disk_probe_mb });
  const canary = await sessionCanary(ctx, w.session, attempt, journal); // host reference before the first launch
  const steps = stepsOfSession(ctx, adapter, w, o);
  const visited = o.arms ?? Object.fromEntries(adapter.units.map((u) => [u, adapter.arms]));
  const opened = await adapter.openSession(
    w.session,
    attempt,
    {
      append: async (rows) => {
        for (const r of rows) await journal.append(r);
      },
      rows: () => journal.rows(),
      markFailed: (ids, reason) => journal.markFailed(ids, reason),
    },
    { services, arms: visited },
  );
  // Consecutive steps of units with the same arms run as one series of rounds (every unit has every arm unless an added session says otherwise).
  const runs: { arms: readonly string[]; steps: RoundStep[] }[] = [];
  for (const step of steps) {
    const arms = armsFor(adapter, o.arms, step.unit);
    const last = runs.at(-1);
    if (last && last.arms === arms) last.steps.push(step);
    else runs.push({ arms, steps: [step] });
  }
  let unit: string | null = null;
  let line = '';
  let socket: string | null = null;
  try {
    for (const series of runs)
      await runRounds({
        seed: design.seed,
        session: w.session,
        order: design.order,
        arms: series.arms,
        steps: series.steps,
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
            await journal.append(row, opened.phasesOf?.(row) ?? []);
            if (row['ok'] !== true) progress.failures++;
            // A visit's time goes to its first row's cell; every visit has the same conditions, so the sum per visit is what the ETA weighs.
            progress.eta.launched(String(row['path']), String(row['state']));
          }
          progress.done += rows.length;
          const step = steps.find((s) => s.unit === v.unit && s.phase === v.phase)!;
          line =
            `session ${w.session}/${Math.max(progress.sessions, w.session)} ` +
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
    await opened.finish?.(o.last);
    socket = opened.dockerSocket?.() ?? null;
  } finally {
    await opened.close();
  }
  // The host fingerprint is read after the last launch, so it never runs between launches.
  return { ...(await closeRecord(socket)), ...canary() };
}
