// The verdicts of a run that sampled until decided come from the sequential
// rule (harness/comparison/sequential-analysis.ts, the one judge), not from the fixed design's
// intervals. Made-up launches; the statistic itself is checked in
// stats-sequential-session-interval and analysis-sequential-decision.
import test from 'ava';
import type { AnalysisResult, DifferenceResult } from '../harness/analysis/analysis-result.js';
import type { ValueRow } from '../harness/analysis/sample-data.js';
import { differenceSessions, withSequentialVerdicts } from '../harness/comparison/sequential-analysis.js';
import { sessionMeanLogRatios } from '../harness/comparison/judge.js';
import { sequentialDecision } from '../harness/analysis/sequential-decision.js';
import { sessionLogRatios } from '../harness/analysis/session-log-ratios.js';
import { defaultSequentialPlan } from '../harness/stats/sequential-session-interval.js';

/** Rows of paths a and b, `rounds` rounds per session, a's value b's times the session's factor. */
function rows(factors: number[], rounds = 5): ValueRow[] {
  const out: ValueRow[] = [];
  factors.forEach((f, i) => {
    for (let round = 1; round <= rounds; round++) {
      for (const [path, ms] of [
        ['a', 100 * f * (1 + 0.001 * round)],
        ['b', 100 * (1 + 0.001 * round)],
      ] as const) {
        out.push({
          launchId: `${path}.${i + 1}.${round}`,
          cohort: 'c',
          path,
          state: 'warm',
          session: i + 1,
          round,
          position: path === 'a' ? 0 : 1,
          previousPath: null,
          readyMs: ms,
          completionMs: ms,
          contentBytes: null,
          responseBytes: null,
        });
      }
    }
  });
  return out;
}

/** A result with one Ready difference a - b the fixed rule calls detected, and b's cell median. */
function result(): AnalysisResult {
  const d = {
    cohort: 'c',
    state: 'warm',
    metric: 'ready',
    a: 'a',
    b: 'b',
    detected: true,
    verdict: { verdict: 'higher', withinMargin: false, marginRelative: 0.05 },
  };
  const cell = { cohort: 'c', path: 'b', state: 'warm', metric: 'ready', p50Ms: 100 };
  return { differences: [d as unknown as DifferenceResult], cells: [cell] } as unknown as AnalysisResult;
}

const margin = { relative: 0.05, absoluteMs: 0 };

test('in an adaptive run a difference whose sessions agree on a large effect is higher by the sequential rule, decided at the first look (made-up data)', (t) => {
  const out = withSequentialVerdicts(result(), rows([1.5, 1.52, 1.49, 1.5]), { minSessions: 3, maxSessions: 8 }, margin);
  const d = out.differences[0]!;
  t.is(d.sequential!.verdict, 'higher');
  t.is(d.sequential!.look, 3, 'decided at the first look and kept');
  t.true(d.detected);
  t.is(d.verdict!.verdict, 'higher');
  t.is(out.decision?.rule, 'sequential');
});

test('in an adaptive run a difference the fixed rule called detected is undecided when its sessions spread too much for the sequential interval (made-up data)', (t) => {
  const factors = [1.02, 1.3, 1.1];
  const out = withSequentialVerdicts(result(), rows(factors), { minSessions: 3, maxSessions: 8 }, margin);
  const d = out.differences[0]!;
  t.is(d.sequential!.verdict, 'undecided');
  t.false(d.sequential!.stopped);
  t.false(d.detected, 'detected follows the sequential rule');
  // the same per-session values, straight through the decision rule
  const values = sessionLogRatios(
    rows(factors).map((r) => ({ ...r, ready_ms: r.readyMs })),
    { cohort: 'c', state: 'warm', a: 'a', b: 'b' },
    'ready_ms',
  );
  t.is(values.length, 3);
  t.false(sequentialDecision(values, { ...defaultSequentialPlan, minSessions: 3, maxSessions: 8 }, 0.05).stop);
});

test('a consistent 1% difference inside an absolute margin of 10 ms is a direction marked within the margin in an adaptive run (made-up data)', (t) => {
  const out = withSequentialVerdicts(result(), rows([1.01, 1.012, 1.008, 1.011]), { minSessions: 3, maxSessions: 8 }, { relative: 0.001, absoluteMs: 10 });
  const d = out.differences[0]!;
  t.is(d.sequential!.verdict, 'higher', 'a 1% effect this consistent is a direction (within the margin)');
  t.true(d.sequential!.withinMargin);
});

test('the sampling and the judge read the same per-session log ratios from the same launches, so the analysis judges what the sampling decided (made-up data)', (t) => {
  const launches = rows([1.2, 0.97, 1.05, 1.31], 3).filter((r) => !(r.session === 2 && r.round === 2 && r.path === 'a'));
  const sampling = sessionLogRatios(
    launches.map((r) => ({ ...r, ready_ms: r.readyMs })),
    { cohort: 'c', state: 'warm', a: 'a', b: 'b' },
    'ready_ms',
  );
  const judged = sessionMeanLogRatios(differenceSessions(launches, { cohort: 'c', state: 'warm', metric: 'ready', a: 'a', b: 'b' }));
  t.is(judged.length, 4);
  judged.forEach((v, i) => t.true(Math.abs(v - sampling[i]!) < 1e-12, `session ${i + 1}: ${v} vs ${sampling[i]}`));
});
