// The confirmation step of the sample stage (design.confirm): after the
// planned K sessions, judges every difference on their formal rows with the
// analysis's own functions and rules (analysis.comparisons, metrics,
// bootstrap), and when some are undecided runs session K + 1 over exactly
// their cohorts and both arms of each, with the design's rounds, warmup and
// settle. The pure parts: analysis/undecided-differences.ts (which
// differences, which cohorts and paths) and experiment/confirm-work.ts
// (which rounds are left, so an interrupted confirmation resumes and a
// complete one adds nothing).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { StageContext } from '../contract/stage.js';
import type { RunningServices } from '../contract/running-services.js';
import type { SampleJournal } from '../db/sample-journal.js';
import { analysisRules } from '../analysis/analysis-rules.js';
import { differenceResults, resolveComparisons } from '../analysis/difference-results.js';
import { readSamples } from '../analysis/read-samples.js';
import { confirmVisits, undecidedDifferences } from '../analysis/undecided-differences.js';
import { confirmDecision, confirmFormat, confirmSessionWork, type ConfirmRecord } from '../experiment/confirm-work.js';
import type { PipelineConfig } from '../config/pipeline-config.js';
import { sampleSession, type SessionRecord } from './sample-session.js';

export { confirmReads } from './confirm-reads.js';

/** Which differences the planned sessions leave undecided and what session K + 1 visits (reads the journal). */
export async function decideConfirmation(ctx: StageContext, journal: SampleJournal): Promise<ConfirmRecord> {
  const k = ctx.config.design.sessions;
  const analysis = ctx.config.analysis;
  const rules = analysisRules({ comparisons: analysis['comparisons'], metrics: analysis['metrics'], bootstrap: analysis['bootstrap'] });
  const copy = join(ctx.workDir, 'confirm-samples.duckdb');
  rmSync(copy, { force: true });
  await journal.exportTo(copy);
  try {
    const data = await readSamples(copy);
    const planned = data.values.filter((r) => r.session <= k);
    const paths = [...new Set(planned.map((r) => r.path))].sort();
    const differences = differenceResults({ cells: data.cells, values: planned }, rules, resolveComparisons(rules.comparisons, paths));
    const undecided = undecidedDifferences(differences);
    const visits = confirmVisits(undecided);
    return {
      format: confirmFormat,
      plannedSessions: k,
      session: undecided.length ? k + 1 : null,
      decision: confirmDecision(k, undecided.length, visits),
      undecided: undecided.map((d) => ({
        cohort: d.cohort,
        state: d.state,
        metric: d.metric,
        a: d.a,
        b: d.b,
        observedMs: d.observedMs,
        lowMs: d.lowMs,
        highMs: d.highMs,
        sessionLowMs: d.sessionLowMs,
        sessionHighMs: d.sessionHighMs,
        sameDirection: d.sameDirection,
        sessions: d.sessions,
      })),
      visits,
    };
  } finally {
    rmSync(copy, { force: true });
  }
}

/** Runs what is left of the confirmation session; null when nothing is (none undecided, or the session is complete). */
export async function runConfirmation(
  ctx: StageContext,
  journal: SampleJournal,
  record: ConfirmRecord,
  id: { attempt: number; preflight: boolean; services: () => Promise<RunningServices> },
): Promise<SessionRecord | null> {
  const design = ctx.config.design;
  const work = confirmSessionWork(await journal.formalRows(), record.plannedSessions, record.visits, design);
  if (!work) return null;
  for (const c of work.cohorts) {
    if (c.partialRounds.length) {
      ctx.log(`session ${work.session} ${c.cohort}: discarding incomplete round(s) ${c.partialRounds.join(', ')} of an interrupted confirmation`);
      await journal.discardRounds(work.session, c.cohort, c.partialRounds);
    }
  }
  // The session sees only the visited cohorts and paths; each cohort launches only the paths its undecided differences involve.
  const visited = new Set(record.visits.flatMap((v) => v.paths));
  const cohorts = new Set(record.visits.map((v) => v.cohort));
  const config: PipelineConfig = {
    ...ctx.config,
    design: { ...design, sessions: work.session },
    cohorts: Object.fromEntries(Object.entries(ctx.config.cohorts).filter(([c]) => cohorts.has(c))),
    paths: Object.fromEntries(Object.entries(ctx.config.paths).filter(([p]) => visited.has(p))),
  };
  const armsByUnit = Object.fromEntries(record.visits.map((v) => [v.cohort, v.paths]));
  return await sampleSession(
    { ...ctx, config },
    journal,
    { session: work.session, attempt: id.attempt, services: await id.services() },
    work,
    id.preflight,
    armsByUnit,
  );
}
