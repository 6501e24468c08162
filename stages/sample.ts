// Formal sampling in `design.sessions` independent sessions. Each session
// starts every service afresh (the first uses the services the engine started
// for this stage, right after its warmup), runs its own preflight (sessions
// after the first; the warmup stage is the first's), then per cohort
// `design.warmup_rounds` excluded rounds and its formal rounds, in an order
// seeded from (seed, session). Every launch is written to DuckDB as it ends;
// after a crash or signal the next run discards the incomplete round and
// resumes the first incomplete session there, so completed rounds are never
// repeated or counted twice. With design.confirm on, once the planned
// sessions are complete, one more session runs for exactly the differences
// they leave undecided (harness/design/confirm-session.ts), and confirm.json
// records the decision. What run() needs is imported inside it, so a command
// that only plans (a no-op rerun, status) does not load the sampling code.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageDefinition } from '../harness/contract/stage.js';
import type { SamplingSummary } from '../harness/contract/exchange-files.js';
import type { SessionRecord } from '../harness/design/sample-session.js';
import type { RunningServices } from '../harness/contract/running-services.js';
import { UserError } from '../harness/errors.js';
import { confirmReads } from '../harness/design/confirm-reads.js';
import type { PlannedSession } from '../harness/experiment/run-eta.js';

const sample: StageDefinition = {
  kind: 'sample',
  description: 'Independent sessions of formal rounds of cold/warm pairs in seeded random path order, journaled in DuckDB, resumable.',
  reads: ['experiment', 'design', 'cohorts', 'paths', 'services', ...confirmReads],
  // With design.confirm off (the default) the key is what it was before confirmation existed: the analysis keys only matter to it.
  keyConfig: (slice) => {
    const design = slice['design'] as Record<string, unknown> | null;
    if (design?.['confirm'] === true) return slice;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(slice)) if (!(confirmReads as readonly string[]).includes(k)) out[k] = v;
    if (design) out['design'] = Object.fromEntries(Object.entries(design).filter(([k]) => k !== 'confirm'));
    return out;
  },
  extraCode: ['harness/paths', 'harness/launch/launcher.c', 'harness/launch/canary.c'],
  services: true,
  async run(ctx) {
    const design = ctx.config.design;
    const paths = Object.keys(ctx.config.paths);
    const cohorts = Object.keys(ctx.config.cohorts);
    if (design.confirm && ctx.config.executor.kind === 'slurm') {
      throw new UserError(
        'design.confirm does not run on the slurm executor yet',
        { key: 'design.confirm' },
        'set design.confirm: false, or executor.kind: local',
      );
    }
    const [{ SampleJournal }, { sampleSession, sessionLaunches }, { remainingWork }, { decideConfirmation, runConfirmation }, { RunEta }] = await Promise.all([
      import('../harness/db/sample-journal.js'),
      import('../harness/design/sample-session.js'),
      import('../harness/experiment/session-plan.js'),
      import('../harness/design/confirm-session.js'),
      import('../harness/experiment/run-eta.js'),
    ]);
    const journal = await SampleJournal.open(join(ctx.workDir, 'samples.duckdb'));
    try {
      const attempt = (await journal.lastAttempt()) + 1;
      const work = remainingWork(await journal.formalRows(), { sessions: design.sessions, rounds: design.rounds, cohorts, paths, states: design.states });
      for (const w of work) {
        for (const c of w.cohorts) {
          if (c.partialRounds.length) {
            ctx.log(`session ${w.session} ${c.cohort}: discarding incomplete round(s) ${c.partialRounds.join(', ')} of an interrupted run`);
            await journal.discardRounds(w.session, c.cohort, c.partialRounds);
          }
          if (c.completeRounds) ctx.log(`session ${w.session} ${c.cohort}: ${c.completeRounds} formal rounds already complete, ${c.rounds.length} to go`);
        }
      }
      // Records of every session run by any attempt, kept in the work folder until the samples are complete.
      const recordsDir = join(ctx.workDir, 'session-records');
      mkdirSync(recordsDir, { recursive: true });
      const sessionLog: SessionRecord[] = [];
      if (ctx.config.executor.kind === 'slurm' && work.length) {
        // One Slurm job per session; each starts its services on its node and runs its own preflight.
        const { runSessionsOnSlurm } = await import('../harness/executors/slurm-sessions.js');
        sessionLog.push(...(await runSessionsOnSlurm(ctx, journal, work, attempt)).records);
      } else {
        // The progress line's ETA covers every session left, and the confirmation session (a whole one, as an upper bound) while undecided.
        const plan: PlannedSession[] = work.map((w, i) => ({ session: w.session, launches: sessionLaunches(ctx, w, i > 0) }));
        if (design.confirm) {
          const whole = {
            session: design.sessions + 1,
            cohorts: cohorts.map((cohort) => ({
              cohort,
              rounds: Array.from({ length: design.rounds }, (_, r) => r + 1),
              partialRounds: [],
              completeRounds: 0,
            })),
          };
          plan.push({ session: whole.session, launches: sessionLaunches(ctx, whole, work.length > 0), upperBound: true });
        }
        const eta = new RunEta(plan, Date.now);
        let services = ctx.services;
        for (const [i, w] of work.entries()) {
          eta.startSession(w.session); // before its services restart: their start is part of the session's overhead
          // The first session of this run has the services the warmup stage just used; every other starts them afresh.
          if (i > 0) services = await ctx.restartServices();
          sessionLog.push(await sampleSession(ctx, journal, { session: w.session, attempt, services, eta }, w, i > 0));
          eta.endSession();
        }
      }
      let confirmed = false;
      if (design.confirm) {
        // Decided on the planned sessions only, so a resumed or repeated run decides the same and never adds a second extra session.
        const decision = await decideConfirmation(ctx, journal);
        ctx.log(`confirmation: ${decision.decision}`);
        // Like any session: fresh services and its own preflight, unless it is this run's first session (right after the warmup stage).
        const first = work.length === 0;
        const extra = await runConfirmation(ctx, journal, decision, {
          attempt,
          preflight: !first,
          services: async () => (first ? ctx.services : await ctx.restartServices()),
        });
        if (extra) sessionLog.push(extra);
        confirmed = decision.session !== null;
        writeFileSync(join(ctx.outputDir, 'confirm.json'), JSON.stringify(decision, null, 2) + '\n');
      }
      const counts = await journal.counts();
      await journal.exportTo(join(ctx.outputDir, 'samples.duckdb'));
      const summary: SamplingSummary = {
        seed: design.seed,
        sessions: design.sessions,
        rounds: design.rounds,
        warmupRounds: design.warmup_rounds,
        preflight: design.preflight,
        states: design.states,
        paths,
        cohorts,
        attempts: attempt,
        formalLaunches: counts.formal,
        formalFailures: counts.failed,
        hosts: await journal.hosts(),
      };
      writeFileSync(join(ctx.outputDir, 'session.json'), JSON.stringify(summary, null, 2) + '\n');
      // When and where each session of this attempt ran: observations, never in a downstream key.
      for (const r of sessionLog) writeFileSync(join(recordsDir, `S${r.session}.a${r.attempt}.json`), JSON.stringify(r) + '\n');
      const all = readdirSync(recordsDir)
        .sort()
        .map((f) => JSON.parse(readFileSync(join(recordsDir, f), 'utf8')) as SessionRecord);
      all.sort((x, y) => x.session - y.session || x.attempt - y.attempt);
      writeFileSync(join(ctx.observationsDir, 'sessions.json'), JSON.stringify(all, null, 2) + '\n');
      ctx.log(
        `${counts.formal} formal launches, ${counts.failed} failures, in ${design.sessions} session(s)${confirmed ? ' and the confirmation session' : ''}`,
      );
    } finally {
      await journal.close();
    }
  },
};

export default sample;
