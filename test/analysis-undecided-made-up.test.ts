// The pure selection of design.confirm on made-up analysis data: which
// differences are undecided, which cohorts and paths the extra session
// visits, what is left of it on resume, the verdicts before and after, and
// the next-run plan's cost of it.
import test from 'ava';
import type { DifferenceResult } from '../harness/analysis/analysis-result.js';
import { confirmVisits, undecidedDifferences, verdictOf } from '../harness/analysis/undecided-differences.js';
import { withConfirmation } from '../harness/analysis/confirmation-verdicts.js';
import { confirmSessionWork } from '../harness/experiment/confirm-work.js';
import { confirmationCost } from '../harness/stats/next-run-plan.js';

/** A made-up difference: intervals and per-session directions as given. */
function madeUp(o: Partial<DifferenceResult> & { cohort: string; a: string; b: string }): DifferenceResult {
  const sessions = o.sessions ?? 3;
  return {
    state: 'warm',
    metric: 'ready',
    rounds: 30,
    sessions,
    perSession: Array.from({ length: sessions }, (_, i) => ({ session: i + 1, rounds: 10, observedMs: 5, direction: 1 as const })),
    sameDirection: sessions,
    betweenSessionEstimated: sessions >= 3,
    observedMs: 5,
    lowMs: 2,
    highMs: 8,
    resamples: 1000,
    confidence: 0.95,
    sessionLowMs: 1,
    sessionHighMs: 9,
    detected: true,
    ...o,
    findings: o.findings ?? { sessionsDisagreeInSize: false, direction: null, sizeUncertain: false, sessionsAloneExcluding: 0 },
  };
}

const detected = madeUp({ cohort: 'c1', a: 'x', b: 'y' });
const tWide = madeUp({ cohort: 'c1', a: 'x', b: 'z', sessionLowMs: -3, sessionHighMs: 13, detected: false });
const disagree = madeUp({ cohort: 'c2', a: 'w', b: 'y', sameDirection: 2 });
const includesZero = madeUp({ cohort: 'c3', a: 'x', b: 'y', lowMs: -1, highMs: 8, sessionLowMs: -4, detected: false });
const notComputable = madeUp({ cohort: 'c3', a: 'x', b: 'z', observedMs: null, lowMs: null, highMs: null, detected: false });

test('made-up verdicts: detected and not detected are decided; an excluding two-level interval with a wide t interval or a disagreeing session is undecided', (t) => {
  t.is(verdictOf(detected), 'detected');
  t.is(verdictOf(tWide), 'undecided');
  t.is(verdictOf(disagree), 'undecided');
  t.is(verdictOf(includesZero), 'not detected');
  t.is(verdictOf(notComputable), 'not detected');
  // A negative difference is judged the same way.
  t.is(
    verdictOf(madeUp({ cohort: 'c', a: 'x', b: 'y', observedMs: -5, lowMs: -8, highMs: -2, sessionLowMs: -9, sessionHighMs: 0.5, detected: false })),
    'undecided',
  );
  // One session: no t interval, every session agrees; the two-level interval decides.
  t.is(verdictOf(madeUp({ cohort: 'c', a: 'x', b: 'y', sessions: 1, sessionLowMs: null, sessionHighMs: null })), 'detected');
});

test('made-up selection: only the undecided differences, and per cohort both arms of each of them, sorted', (t) => {
  const all = [detected, tWide, disagree, includesZero, notComputable, madeUp({ ...tWide, state: 'cold' })];
  const undecided = undecidedDifferences(all);
  t.deepEqual(
    undecided.map((d) => `${d.cohort} ${d.state} ${d.a}-${d.b}`),
    ['c1 warm x-z', 'c2 warm w-y', 'c1 cold x-z'],
  );
  t.deepEqual(confirmVisits(undecided), [
    { cohort: 'c1', paths: ['x', 'z'] }, // y is only in the detected x − y: not visited
    { cohort: 'c2', paths: ['w', 'y'] },
  ]);
  t.deepEqual(undecidedDifferences([detected, includesZero]), []);
  t.deepEqual(confirmVisits([]), []);
});

const rowsOf = (session: number, cohort: string, paths: string[], rounds: number[]) =>
  rounds.flatMap((round) => paths.flatMap((path) => ['cold', 'warm'].map((state) => ({ session, cohort, round, path, state }))));

test('made-up journal: the confirmation session runs every round at first, resumes at its first incomplete round, and has nothing left once complete', (t) => {
  const visits = [{ cohort: 'c1', paths: ['x', 'z'] }];
  const design = { rounds: 3, states: ['cold', 'warm'] };
  const planned = [1, 2, 3].flatMap((s) => rowsOf(s, 'c1', ['x', 'y', 'z'], [1, 2, 3]));
  t.deepEqual(confirmSessionWork(planned, 3, visits, design), {
    session: 4,
    cohorts: [{ cohort: 'c1', rounds: [1, 2, 3], partialRounds: [], completeRounds: 0 }],
  });
  // Round 1 complete, round 2 half journaled when the run was killed.
  const interrupted = [...planned, ...rowsOf(4, 'c1', ['x', 'z'], [1]), ...rowsOf(4, 'c1', ['x'], [2])];
  t.deepEqual(confirmSessionWork(interrupted, 3, visits, design), {
    session: 4,
    cohorts: [{ cohort: 'c1', rounds: [2, 3], partialRounds: [2], completeRounds: 1 }],
  });
  // Complete: no work, so a rerun adds no session 5.
  t.is(confirmSessionWork([...planned, ...rowsOf(4, 'c1', ['x', 'z'], [1, 2, 3])], 3, visits, design), null);
  // Nothing undecided: no session.
  t.is(confirmSessionWork(planned, 3, [], design), null);
});

test('made-up before and after: confirmed only when undecided on the planned sessions and detected with the extra one', (t) => {
  const withFour = (d: DifferenceResult, o: Partial<DifferenceResult>): DifferenceResult => ({
    ...d,
    sessions: 4,
    perSession: [...d.perSession, { session: 4, rounds: 10, observedMs: 5, direction: 1 }],
    sameDirection: 4,
    ...o,
    findings: o.findings ?? d.findings,
  });
  const before = [tWide, disagree, detected];
  const after = [withFour(tWide, { sessionLowMs: 0.5, detected: true }), withFour(disagree, { sameDirection: 3 }), detected];
  const judged = withConfirmation(after, before, { plannedSessions: 3, session: 4 });
  t.deepEqual(
    judged.map((d) => d.confirmation),
    [
      { verdictBefore: 'undecided', verdictAfter: 'detected', visited: true, confirmed: true },
      { verdictBefore: 'undecided', verdictAfter: 'undecided', visited: true, confirmed: false },
      { verdictBefore: 'detected', verdictAfter: 'detected', visited: false, confirmed: false },
    ],
  );
  t.true(withConfirmation(after, before, null).every((d) => d.confirmation === undefined));
});

test('made-up costs: one session start plus one launch per undecided cell and planned round', (t) => {
  t.deepEqual(confirmationCost(4, 10, { sessionStartMs: 60_000, launchMs: 500 }), { launches: 40, costMs: 60_000 + 40 * 500 });
  t.deepEqual(confirmationCost(0, 10, { sessionStartMs: 60_000, launchMs: 500 }), { launches: 0, costMs: 0 });
});

test('with design.confirm off the sample stage keys what it keyed before confirmation existed; on, the analysis keys it reads as well', async (t) => {
  const { default: sample } = await import('../stages/sample.js');
  const { configSlice } = await import('../harness/engine/stage-key.js');
  const config = {
    experiment: { name: 'e' },
    design: { sessions: 3, rounds: 2, confirm: false },
    cohorts: {},
    paths: {},
    services: {},
    analysis: { comparisons: [{ a: 'x', b: 'y' }], bootstrap: { resamples: 100 }, metrics: ['ready'], clusters: {} },
  };
  const before = configSlice(config, ['experiment', 'design', 'cohorts', 'paths', 'services']);
  const off = sample.keyConfig!(configSlice(config, sample.reads), '/');
  t.deepEqual(off, { ...before, design: { sessions: 3, rounds: 2 } });
  const on = sample.keyConfig!(configSlice({ ...config, design: { ...config.design, confirm: true } }, sample.reads), '/');
  t.deepEqual(on['analysis.comparisons'], [{ a: 'x', b: 'y' }]);
  t.deepEqual(on['analysis.bootstrap'], { resamples: 100 });
  t.deepEqual((on['design'] as Record<string, unknown>)['confirm'], true);
  t.false('analysis.clusters' in on); // a rule only the analysis reads never reruns the sampling
});
