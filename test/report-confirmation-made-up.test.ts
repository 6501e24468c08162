// The report's sentences on design.confirm, on made-up analyses: off says
// nothing, "none undecided" says so, and the confirmed conclusions are listed.
import test from 'ava';
import type { AnalysisResult, DifferenceResult } from '../harness/analysis/analysis-result.js';
import { confirmationCostSentence, confirmationMethodSentence, confirmationSessionsBlock } from '../harness/report/launch-phrases.js';

function difference(o: Partial<DifferenceResult>): DifferenceResult {
  return {
    cohort: 'shell',
    state: 'warm',
    metric: 'ready',
    a: 'docker',
    b: 'lazy',
    rounds: 40,
    sessions: 4,
    perSession: [],
    sameDirection: 4,
    betweenSessionEstimated: true,
    observedMs: 12.34,
    lowMs: 8.1,
    highMs: 16,
    resamples: 1000,
    confidence: 0.95,
    sessionLowMs: 2,
    sessionHighMs: 20,
    detected: true,
    ...o,
    findings: o.findings ?? { sessionsDisagreeInSize: false, direction: null, sizeUncertain: false, sessionsAloneExcluding: 0 },
  };
}

const madeUp = (o: Partial<AnalysisResult>): AnalysisResult => ({ differences: [], nextRun: { confirmation: null }, ...o }) as unknown as AnalysisResult;

test('made-up analysis without confirmation: no sentence anywhere', (t) => {
  const a = madeUp({});
  t.is(confirmationSessionsBlock(a, 1), null);
  t.is(confirmationMethodSentence(a), null);
  t.is(confirmationCostSentence(a), null);
});

test('made-up analysis with nothing undecided: says no session was added', (t) => {
  const a = madeUp({ confirmation: { plannedSessions: 3, session: null } });
  t.deepEqual(confirmationSessionsBlock(a, 1), {
    sentence: 'Confirmation was on: no difference was undecided after the 3 planned sessions, so no session was added.',
    confirmed: [],
  });
  t.regex(confirmationMethodSentence(a)!, /^Confirmation was on \(design\.confirm\): after the 3 planned sessions/);
});

test('made-up analysis with a confirmation session: one sentence, the confirmed ones listed, the rest counted', (t) => {
  const judged = (verdictAfter: 'detected' | 'undecided' | 'not detected', o: Partial<DifferenceResult> = {}): DifferenceResult =>
    difference({ ...o, confirmation: { verdictBefore: 'undecided', verdictAfter, visited: true, confirmed: verdictAfter === 'detected' } });
  const a = madeUp({
    confirmation: { plannedSessions: 3, session: 4 },
    differences: [
      judged('detected'),
      judged('undecided', { state: 'cold' }),
      judged('not detected', { metric: 'completion' }),
      difference({ cohort: 'python', confirmation: { verdictBefore: 'detected', verdictAfter: 'detected', visited: false, confirmed: false } }),
    ],
  });
  const block = confirmationSessionsBlock(a, 1)!;
  t.regex(
    block.sentence,
    /^Confirmation was on: 3 differences were undecided after the 3 planned sessions .* session 4 ran over only their cohorts and paths; with it 1 was detected, confirmed this way \(1 stayed undecided and 1 was no longer detected\):$/,
  );
  t.deepEqual(block.confirmed, ['docker − lazy, cohort shell, warm, Ready: 12.3 ms [8.1, 16.0] over 4 sessions']);
});

test('made-up next-run cost: launches, rounds and minutes of the one extra session', (t) => {
  const a = madeUp({ nextRun: { confirmation: { undecided: 2, cells: 4, rounds: 20, launches: 80, costS: 300 } } as unknown as AnalysisResult['nextRun'] });
  t.is(
    confirmationCostSentence(a),
    'With design.confirm on, the next run would add one session over the 4 cells of the 2 differences undecided here: 80 launches at 20 rounds, about 5 minutes, session start included.',
  );
});
