// Formal sampling: for each cohort, `design.warmup_rounds` excluded rounds and
// then the formal rounds still missing from the journal. Every launch is
// written to DuckDB as it ends; after a crash or signal the next run discards
// the incomplete round and resumes after a fresh warmup, so completed rounds
// are never repeated or counted twice.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageContext, StageDefinition } from '../harness/contract/stage.js';
import { SampleJournal } from '../harness/db/sample-journal.js';
import { openSession } from '../harness/design/open-session.js';
import { cohortProgress, remainingRounds } from '../harness/design/session-plan.js';
import { formatProgress } from '../harness/design/progress-line.js';

interface CohortWork {
  cohort: string;
  rounds: number[];
}

const sample: StageDefinition = {
  kind: 'sample',
  description: 'Formal rounds of cold/warm pairs in seeded random path order, journaled in DuckDB, resumable.',
  reads: ['experiment', 'design', 'cohorts', 'paths', 'services'],
  extraCode: ['harness/paths', 'harness/launch/launcher.c'],
  services: true,
  async run(ctx) {
    const design = ctx.config.design;
    const paths = Object.keys(ctx.config.paths);
    const journal = await SampleJournal.open(join(ctx.workDir, 'samples.duckdb'));
    try {
      const session = (await journal.lastSession()) + 1;
      const work: CohortWork[] = [];
      for (const cohort of Object.keys(ctx.config.cohorts)) {
        const progress = cohortProgress(await journal.formalRows(cohort), paths, design.states);
        if (progress.partialRounds.size) {
          ctx.log(`${cohort}: discarding incomplete round(s) ${[...progress.partialRounds].sort((a, b) => a - b).join(', ')} of an interrupted session`);
          await journal.discardRounds(cohort, [...progress.partialRounds]);
        }
        const rounds = remainingRounds(design.rounds, progress);
        if (progress.completeRounds.size) ctx.log(`${cohort}: ${progress.completeRounds.size} formal rounds already complete, ${rounds.length} to go`);
        if (rounds.length) work.push({ cohort, rounds });
      }
      if (work.length) await sampleCohorts(ctx, journal, session, work);
      const counts = await journal.counts();
      await journal.exportTo(join(ctx.outputDir, 'samples.duckdb'));
      writeFileSync(
        join(ctx.outputDir, 'session.json'),
        JSON.stringify(
          {
            seed: design.seed,
            rounds: design.rounds,
            warmupRounds: design.warmup_rounds,
            preflight: design.preflight,
            states: design.states,
            paths,
            cohorts: Object.keys(ctx.config.cohorts),
            sessions: session,
            formalLaunches: counts.formal,
            formalFailures: counts.failed,
          },
          null,
          2,
        ) + '\n',
      );
      ctx.log(`${counts.formal} formal launches, ${counts.failed} failures, over ${session} session(s)`);
    } finally {
      await journal.close();
    }
  },
};

async function sampleCohorts(ctx: StageContext, journal: SampleJournal, session: number, work: CohortWork[]): Promise<void> {
  const design = ctx.config.design;
  const perRound = Object.keys(ctx.config.paths).length * design.states.length;
  const total = work.reduce((n, w) => n + (design.warmup_rounds + w.rounds.length) * perRound, 0);
  let done = 0;
  let failures = 0;
  const t0 = Date.now();
  const at = { cohort: '', phase: '', round: 0, rounds: 0 };
  const line = (): string => formatProgress({ ...at, launchesDone: done, launchesTotal: total, failures, elapsedMs: Date.now() - t0 });
  const opened = await openSession(
    ctx,
    session,
    async (row) => {
      await journal.append(row);
      done++;
      if (!row['ok']) failures++;
      ctx.progress?.(line());
    },
    (ids, reason) => journal.markFailed(ids, reason),
  );
  const roundDone = (): void => ctx.log(line()); // one plain line per round
  try {
    for (const w of work) {
      for (let r = 1; r <= design.warmup_rounds; r++) {
        Object.assign(at, { cohort: w.cohort, phase: 'warmup', round: r, rounds: design.warmup_rounds });
        await opened.session.runRound(w.cohort, 'warmup', r);
        roundDone();
      }
      for (const r of w.rounds) {
        Object.assign(at, { cohort: w.cohort, phase: 'formal', round: r, rounds: design.rounds });
        await opened.session.runRound(w.cohort, 'formal', r);
        roundDone();
      }
    }
  } finally {
    await opened.close();
  }
}

export default sample;
