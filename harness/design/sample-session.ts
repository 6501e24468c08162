// One sampling session: its preflight (when asked), then per cohort its
// warmup rounds and its remaining formal rounds, every launch journaled as it
// ends. The sample stage runs it in process; a Slurm job runs it on its node.
import type { StageContext } from '../contract/stage.js';
import type { RunningServices } from '../contract/running-services.js';
import type { SampleJournal } from '../db/sample-journal.js';
import type { SessionRecord } from '../contract/exchange-files.js';
import { startSessionRecord } from '../experiment/session-record.js';
import { openSession } from './open-session.js';
import { formatProgress } from '../experiment/progress-line.js';
import { addRounds, RunEta } from '../experiment/run-eta.js';
import { runRounds } from '../experiment/run-rounds.js';
import { dataFilesystem, deletionCarryoverRisk } from '../process/data-filesystem.js';
import { sessionSteps } from '../experiment/session-steps.js';
import type { SessionWork } from '../experiment/session-plan.js';
import { sessionCanary } from '../experiment/host-canary.js';

export type { SessionRecord };

/** The launches of one session by cell (path x state): preflight when asked, then each cohort's warmup and remaining formal rounds. Pure. */
export function sessionLaunches(
  ctx: Pick<StageContext, 'config'>,
  work: SessionWork,
  preflight: boolean,
  armsByUnit?: Readonly<Record<string, readonly string[]>>,
): Map<string, number> {
  const design = ctx.config.design;
  const out = new Map<string, number>();
  const arms = (unit: string): readonly string[] => armsByUnit?.[unit] ?? Object.keys(ctx.config.paths);
  if (preflight) for (const c of Object.keys(ctx.config.cohorts)) addRounds(out, arms(c), design.states, design.preflight);
  for (const w of work.cohorts) addRounds(out, arms(w.cohort), design.states, design.warmup_rounds + w.rounds.length);
  return out;
}

/** One session: its preflight (when asked), then per cohort its warmup rounds and remaining formal rounds. */
export async function sampleSession(
  ctx: StageContext,
  journal: SampleJournal,
  /** eta: the run's estimator when the caller drives several sessions (it starts and ends this one); absent: this session alone. */
  id: { session: number; attempt: number; services: RunningServices; eta?: RunEta },
  work: SessionWork,
  preflight: boolean,
  /** The arms of each unit when they differ from every path (the confirmation session, design.confirm); absent: every path. */
  armsByUnit?: Readonly<Record<string, readonly string[]>>,
): Promise<SessionRecord> {
  const design = ctx.config.design;
  const dataFs = dataFilesystem(ctx.dataDir);
  const risk = dataFs ? deletionCarryoverRisk(dataFs, 'the data folder') : null;
  if (risk) ctx.log(`session ${id.session}: warning: ${risk}; \`pipeline doctor\` gives the remedy`);
  // Our own detached helpers (rclone, engine shims) live under the data folder or a private engine folder.
  const closeRecord = await startSessionRecord(id.session, id.attempt, [ctx.dataDir, '/bg-engine-'], { dir: ctx.dataDir, probeMib: design.disk_probe_mb });
  const canary = await sessionCanary(ctx, id.session, id.attempt, journal); // host reference before the first launch
  const perRound = (unit: string): number => (armsByUnit?.[unit]?.length ?? Object.keys(ctx.config.paths).length) * design.states.length;
  const preflightLaunches = preflight ? Object.keys(ctx.config.cohorts).reduce((n, c) => n + design.preflight * perRound(c), 0) : 0;
  const total = preflightLaunches + work.cohorts.reduce((n, w) => n + (design.warmup_rounds + w.rounds.length) * perRound(w.cohort), 0);
  let done = 0;
  let failures = 0;
  const eta = id.eta ?? new RunEta([{ session: id.session, launches: sessionLaunches(ctx, work, preflight, armsByUnit) }], Date.now);
  if (!id.eta) eta.startSession(id.session);
  const at = { cohort: '', phase: '', round: 0, rounds: 0 };
  const line = (): string =>
    `session ${id.session}/${design.sessions} ` + formatProgress({ ...at, launchesDone: done, launchesTotal: total, failures, eta: eta.estimate() });
  const opened = await openSession(
    ctx,
    id,
    async (row, phases) => {
      await journal.append(row, phases);
      done++;
      eta.launched(String(row['path']), String(row['state']));
      if (!row['ok']) failures++;
      ctx.progress?.(line());
    },
    (ids, reason) => journal.markFailed(ids, reason),
  );
  const steps = sessionSteps(work, {
    preflight: preflight ? design.preflight : 0,
    warmupRounds: design.warmup_rounds,
    formalRounds: design.rounds,
    units: Object.keys(ctx.config.cohorts),
  });
  // Every unit has every path, unless the units' arms are given: then each unit's consecutive steps run with its own arms.
  const runs: { arms: readonly string[]; steps: typeof steps }[] = [];
  for (const step of steps) {
    const arms = armsByUnit?.[step.unit] ?? opened.session.pathIds;
    const last = runs.at(-1);
    if (last && last.arms === arms) last.steps.push(step);
    else runs.push({ arms, steps: [step] });
  }
  try {
    for (const run of runs)
      await runRounds({
        seed: design.seed,
        session: id.session,
        order: design.order,
        arms: run.arms,
        steps: run.steps,
        signal: ctx.signal,
        visit: async (v) => {
          Object.assign(at, { cohort: v.unit, phase: v.phase, round: v.round, rounds: steps.find((s) => s.unit === v.unit && s.phase === v.phase)!.of });
          await opened.session.runPair(v.unit, v.arm, v.phase, v.round, v.position, v.previous);
        },
        afterRound: (step) => {
          opened.session.afterRound(step.unit, step.phase, step.round);
          ctx.log(line()); // one plain line per round
        },
      });
  } finally {
    await opened.close();
  }
  // The host fingerprint is read after the last launch, so it never runs between launches.
  const engine = Object.values(id.services.byId).find((s) => s.kind === 'docker-engine');
  return { ...(await closeRecord(engine?.socket ?? null)), ...canary() };
}
