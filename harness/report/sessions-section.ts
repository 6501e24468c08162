// The report's account of sessions: how the cells moved between independent
// sessions, which level of repetition dominates their variance, the host's
// other load in each session (a noisy session is flagged, never dropped), and
// the sessions x rounds recommended for the next run. Pure.
import type { AnalysisResult } from '../analysis/analysis-result.js';
import type { SessionRecord } from '../contract/exchange-files.js';
import { fixed, grouped } from '../publish/format-number.js';
import { sessionsDisagreeInSize, sizeUncertain } from './conclusions.js';
import { differenceOrderEffect } from './order-effect-notes.js';
import { paragraph, table, type Block } from '../document/document-model.js';
import { canaryBlocks } from './canary-section.js';
import { hostNoiseBlocks } from '../publish/session-sections.js';

export function sessionCount(a: AnalysisResult): number {
  // With design.confirm, the planned sessions: only the undecided cells had the extra one.
  return a.confirmation?.plannedSessions ?? Math.max(0, ...a.cells.map((c) => c.sessions.length));
}

/** Sentence on what the intervals cover, by the number of sessions. */
export function sessionScopeSentence(k: number): string {
  if (k <= 1)
    return 'There was one session, so the intervals describe that session only: how much another session (another start of every service, another host) would move the cells is not measured.';
  if (k < 3)
    return `There were ${k} sessions; with fewer than 3, between-session uncertainty is not estimated, so an interval that excludes 0 may still not hold in another session.`;
  return (
    `Each interval resamples the ${k} sessions with replacement, then the complete paired rounds within each drawn session, so it includes the variation between sessions. ` +
    `With only ${k} sessions that resampling sees too little of the spread between them, so a difference is called detected only when, besides, a Student's t interval over the ${k} per-session differences (${k - 1} degrees of freedom) excludes 0; ` +
    'where it does not, the sessions disagree in size and the report says so.'
  );
}

/** The sessions in the main text (what the intervals cover, what held in every session, the next run) and in the appendix (the tables). */
export function sessionsSection(a: AnalysisResult, records: readonly SessionRecord[] | null, msDecimals: number): { main: Block[]; appendix: Block[] } {
  const main: Block[] = [];
  const appendix: Block[] = [];
  const k = sessionCount(a);
  // with 3 or more sessions the method section states how the intervals use them
  if (k < 3) main.push(paragraph(sessionScopeSentence(k)));
  if (k > 1) {
    const cells = a.cells.filter((c) => c.metric === 'ready' && c.sessions.length > 1);
    const ids = [...new Set(cells.flatMap((c) => c.sessions.map((s) => s.session)))].sort((x, y) => x - y);
    appendix.push(
      table(
        ['cohort', 'path', 'state', ...ids.map((s) => `session ${s}`), 'spread', 'dominant level'],
        cells.map((c) => [
          c.cohort,
          c.path,
          c.state,
          ...ids.map((s) => {
            const m = c.sessions.find((x) => x.session === s);
            return m ? fixed(m.p50Ms, msDecimals) : '-';
          }),
          c.sessionSpread === null ? '-' : `${fixed(c.sessionSpread, 2)}×`,
          c.variance.dominant ?? '-',
        ]),
        `Ready P50 of each cell in each session (ms), the spread between sessions (largest / smallest session median) and the level of repetition that dominates the variance of the cell's mean (a nested analysis of variance: between sessions, or between rounds within a session). Every session's medians are in sessions.csv.`,
      ),
    );
    const reversed = a.differences.filter((d) => d.detected && d.sessions > 1 && d.sameDirection < d.sessions);
    // the count in the main text, each one with its sessions in the appendix
    main.push(
      paragraph(
        reversed.length
          ? `${reversed.length} of the ${a.differences.filter((d) => d.detected && d.sessions > 1).length} detected differences did not point the same way in every session (the appendix "Sessions detail" names each).`
          : 'Every detected difference had the same direction in every session.',
      ),
    );
    if (reversed.length)
      appendix.push(
        paragraph(
          `Detected differences whose direction did not hold in every session: ${reversed.map((d) => `${d.cohort} ${d.state} ${d.metric} ${d.a} − ${d.b} (same direction in ${d.sameDirection} of ${d.sessions} sessions${differenceOrderEffect(a, d).length ? '; order effect' : ''})`).join('; ')}.`,
        ),
      );
    const unsettled = a.differences.filter(sessionsDisagreeInSize);
    if (unsettled.length)
      main.push(
        paragraph(
          `Differences whose two-level interval excludes 0 but whose between-session interval does not, so they are not called detected; "size uncertain" where every session alone excludes 0 on the same side, so the direction holds: ${unsettled
            .map(
              (d) =>
                `${d.cohort} ${d.state} ${d.metric} ${d.a} − ${d.b} (${sizeUncertain(d) ? 'size uncertain' : `${d.findings.sessionsAloneExcluding ?? 0} of ${d.sessions} sessions alone exclude 0`}; per session ${d.perSession.map((s) => fixed(s.observedMs, msDecimals)).join(', ')} ms; between-session interval [${fixed(d.sessionLowMs!, msDecimals)}, ${fixed(d.sessionHighMs!, msDecimals)}] ms)`,
            )
            .join('; ')}.`,
        ),
      );
  }
  appendix.push(...hostNoiseBlocks(records, a));
  appendix.push(...canaryBlocks(a, records, msDecimals));
  const plan = a.nextRun;
  if (!plan.reachable) {
    main.push(
      paragraph(
        `Next run: no recommendation${plan.unplanned.length ? ` (${plan.unplanned.length} cells have fewer than 2 sessions, so their between-session variance is unknown; run at least 3 sessions)` : ' within 50 sessions and 200 rounds'}.`,
      ),
    );
  } else {
    // sampled until decided: the next run decides by the same rule, so the fixed plan (what a fixed design of that
    // precision would cost) moves to the appendix and the main text says what the next run would do
    const sequential = a.decision?.rule === 'sequential';
    if (sequential)
      main.push(
        paragraph(
          `Next run: a larger design.adaptive budget decides more ("What stopping saved"). ` +
            `Sessions dominate the variance in ${plan.cells.filter((c) => c.dominant === 'sessions').length} of ${plan.cells.length} cells.`,
        ),
      );
    (sequential ? appendix : main).push(
      paragraph(
        `${sequential ? 'A fixed design instead' : 'Next run'}: for a ${fixed(plan.target.relativeHalfWidth * 100, 1)}% half width of every Ready cell's ${fixed(plan.target.confidence * 100, 0)}% interval of the mean, ` +
          `the least launch time is ${plan.sessions} sessions × ${plan.rounds} rounds (${grouped(plan.launches)} launches, about ${fixed(plan.costS / 60, 0)} minutes, ` +
          `counting ${costWords(plan.target)}), after Kalibera & Jones (ISMM 2013)${plan.target.roundsMultiple && plan.target.roundsMultiple > 1 ? `, rounds in multiples of ${plan.target.roundsMultiple} so the order stays balanced` : ''}.` +
          (sequential
            ? ''
            : ` Sessions dominate the variance in ${plan.cells.filter((c) => c.dominant === 'sessions').length} of ${plan.cells.length} cells.`) +
          detectableSentence(plan.cells),
      ),
    );
  }
  return { main, appendix };
}

/** The session and launch costs the plan priced, and where each came from. */
function costWords(t: AnalysisResult['nextRun']['target']): string {
  const start =
    t.sessionStartSource === 'measured'
      ? `${fixed(t.sessionStartS, 0)} s per session start, this run's median preflight and warmup (the services' own start comes on top)`
      : t.sessionStartSource === 'default'
        ? `an assumed ${fixed(t.sessionStartS, 0)} s per session start (analysis.next_run.session_start_s)`
        : `${fixed(t.sessionStartS, 0)} s per session start`;
  const launch =
    t.launchMsSource === 'measured'
      ? `${fixed(t.launchMs / 1000, 2)} s per launch, this run's median spacing of formal launches (settle and teardown included)`
      : `${fixed(t.launchMs, 0)} ms per launch`;
  return `${start} and ${launch}`;
}

/**
 * What the planned run can see: the range over cells of the smallest
 * difference (from an independent cell like it) it would detect 80% of the
 * time (harness/stats/power.ts via next-run-plan.ts); empty for an analysis
 * written before the plan carried it.
 */
function detectableSentence(cells: readonly { smallestDetectableMs?: number | null }[]): string {
  const ms = cells.flatMap((c) => (typeof c.smallestDetectableMs === 'number' && Number.isFinite(c.smallestDetectableMs) ? [c.smallestDetectableMs] : []));
  if (ms.length === 0) return '';
  const lo = Math.min(...ms);
  const hi = Math.max(...ms);
  const range = lo === hi ? `${fixed(lo, 1)} ms` : `${fixed(lo, 1)} to ${fixed(hi, 1)} ms, depending on the cell`;
  return ` At that design, the smallest true difference from a like cell that would be detected in 80% of runs is ${range} (docs/STATISTICS.md).`;
}
