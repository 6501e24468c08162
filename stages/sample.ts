// Formal sampling in `design.sessions` independent sessions. Each session
// starts every service afresh (the first uses the services the engine started
// for this stage, right after its warmup), runs its own preflight (sessions
// after the first; the warmup stage is the first's), then per cohort
// `design.warmup_rounds` excluded rounds and its formal rounds, in an order
// seeded from (seed, session). Every launch is written to DuckDB as it ends;
// after a crash or signal the next run discards the incomplete round and
// resumes the first incomplete session there, so completed rounds are never
// repeated or counted twice.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageDefinition } from '../harness/contract/stage.js';
import type { SamplingSummary } from '../harness/contract/exchange-files.js';
import { SampleJournal } from '../harness/db/sample-journal.js';
import { sampleSession, type SessionRecord } from '../harness/design/sample-session.js';
import { remainingWork } from '../harness/experiment/session-plan.js';
import type { RunningServices } from '../harness/contract/running-services.js';

const sample: StageDefinition = {
  kind: 'sample',
  description: 'Independent sessions of formal rounds of cold/warm pairs in seeded random path order, journaled in DuckDB, resumable.',
  reads: ['experiment', 'design', 'cohorts', 'paths', 'services'],
  extraCode: ['harness/paths', 'harness/launch/launcher.c'],
  services: true,
  async run(ctx) {
    const design = ctx.config.design;
    const paths = Object.keys(ctx.config.paths);
    const cohorts = Object.keys(ctx.config.cohorts);
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
        let services = ctx.services;
        for (const [i, w] of work.entries()) {
          // The first session of this run has the services the warmup stage just used; every other starts them afresh.
          if (i > 0) services = await ctx.restartServices();
          sessionLog.push(await sampleSession(ctx, journal, { session: w.session, attempt, services }, w, i > 0));
        }
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
      ctx.log(`${counts.formal} formal launches, ${counts.failed} failures, in ${design.sessions} session(s)`);
    } finally {
      await journal.close();
    }
  },
};

export default sample;
