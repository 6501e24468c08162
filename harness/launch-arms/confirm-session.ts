// The confirmation step of the sample stage (design.confirm): after the
// planned K sessions, judges every difference on their formal rows with the
// analysis's own functions and rules (analysis.comparisons, metrics,
// bootstrap), and when some are undecided adds session K + 1 over exactly
// their cohorts and both arms of each, with the design's rounds, warmup and
// settle, through the experiment driver's added-sessions hook (the one
// design.adaptive uses). The pure parts: analysis/undecided-differences.ts (which
// differences, which cohorts and paths) and experiment/confirm-work.ts
// (which rounds are left, so an interrupted confirmation resumes and a
// complete one adds nothing).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageContext } from '../contract/stage.js';
import type { SampleJournal } from '../db/sample-journal.js';
import { differenceResults, resolveComparisons } from '../analysis/difference-results.js';
import { readSamples } from '../analysis/read-samples.js';
import { confirmVisits, undecidedDifferences } from '../analysis/undecided-differences.js';
import { confirmDecision, confirmFormat, type ConfirmRecord } from '../experiment/confirm-work.js';
import type { AddedSessions } from '../experiment/sample-experiment.js';

export { confirmReads } from './confirm-reads.js';

/** Which differences the planned sessions leave undecided and what session K + 1 visits (reads the journal). */
export async function decideConfirmation(ctx: StageContext, journal: SampleJournal): Promise<ConfirmRecord> {
  const k = ctx.config.design.sessions;
  const rules = ctx.config.rules; // the fields of confirmReads: comparisons, metrics, bootstrap
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

/**
 * design.confirm as the driver's added sessions (the hook design.adaptive uses
 * too): after the planned K sessions, session K + 1 over exactly the
 * undecided differences' cohorts, each with its own arms; confirm.json at the end.
 * Decided on the planned sessions only, so a resumed or repeated run decides
 * the same and never adds a second extra session.
 */
export function confirmSessions(ctx: StageContext): AddedSessions {
  const k = ctx.config.design.sessions;
  let decided: ConfirmRecord | null = null;
  const decide = async (journal: SampleJournal): Promise<ConfirmRecord> => (decided ??= await decideConfirmation(ctx, journal));
  return {
    planned: k,
    next: async (journal, done) => {
      if (done > k) return null;
      const d = await decide(journal);
      if (d.session === null) {
        ctx.log(`confirmation: ${d.decision}`);
        return null;
      }
      return { session: d.session, visits: d.visits, unionArms: false, note: `confirmation: ${d.decision}` };
    },
    finish: async (journal) => {
      writeFileSync(join(ctx.outputDir, 'confirm.json'), JSON.stringify(await decide(journal), null, 2) + '\n');
    },
  };
}
