// The launch report's phrases state how many launches each statistic covers
// and never claim more than the statistic shows (a lower median, not
// "faster"): the counts of conclusions.ts and the named phrases of
// launch-phrases.ts, on made-up analyses.
import test from 'ava';
import type { AnalysisResult, CellStatistics, DifferenceResult } from '../harness/analysis/analysis-result.js';
import { countText, failedText, reasonLabel } from '../harness/report/conclusions.js';
import { accountingSentence, differenceCell, failuresSentence, fastestCell, orderEffectSentence, settleSentence } from '../harness/report/launch-phrases.js';
import type { SampleRow } from '../harness/db/sample-row.js';
import { madeUpRow } from './helpers/made-up-row.js';
import type { Phase } from '../harness/db/sample-row.js';

function cell(path: string, launches: number, failures: number, p50Ms: number): CellStatistics {
  const n = launches - failures;
  return {
    cohort: 'shell',
    path,
    state: 'cold',
    metric: 'ready',
    launches,
    failures,
    n,
    p50Ms,
    p95Ms: null,
    p95ReferenceOnly: true,
    minMs: p50Ms - 10,
    maxMs: p50Ms + 10,
    split: false,
    groups: [],
    sessions: [{ session: 1, n, p50Ms }],
    sessionSpread: null,
    variance: { betweenSessions: null, withinSessions: 1, dominant: null },
    position: null,
    predecessor: null,
    orderEffect: false,
    carryover: 'not-estimated',
  };
}

const difference: DifferenceResult = {
  cohort: 'shell',
  state: 'cold',
  metric: 'ready',
  a: 'docker',
  b: 'lazy',
  rounds: 28,
  sessions: 1,
  perSession: [{ session: 1, rounds: 28, observedMs: 200, direction: 1 }],
  sameDirection: 1,
  betweenSessionEstimated: false,
  sessionLowMs: null,
  sessionHighMs: null,
  findings: { sessionsDisagreeInSize: false, direction: 'higher', sizeUncertain: false, sessionsAloneExcluding: 0 },
  observedMs: 200,
  lowMs: 180,
  highMs: 220,
  resamples: 1000,
  confidence: 0.95,
  detected: true,
};

function analysis(dockerFailures: number): AnalysisResult {
  return {
    cells: [cell('docker', 30, dockerFailures, 400), cell('lazy', 30, 0, 190)],
    dominance: [{ cohort: 'shell', state: 'cold', metric: 'ready', a: 'docker', b: 'lazy', nA: 30 - dockerFailures, nB: 30, result: 'b-precedes-a' }],
    differences: [{ ...difference, rounds: 30 - dockerFailures }],
    failures:
      dockerFailures === 0
        ? []
        : [
            {
              cohort: 'shell',
              path: 'docker',
              state: 'cold',
              reason: 'timed out after 300000 ms (marker not seen); process group killed',
              count: dockerFailures - 1,
            },
            {
              cohort: 'shell',
              path: 'docker',
              state: 'cold',
              reason: 'marker line "BENCHGRAPH-READY-L0000007" never appeared on stdout (exit code 1)',
              count: 1,
            },
          ],
    bytes: [],
  } as unknown as AnalysisResult;
}

test('a cell with failures says how many launches its statistics cover, how many failed and why', (t) => {
  const a = analysis(3);
  t.is(countText(a, a.cells[0]!), 'n=27 of 30; 3 failed (2 timeout, 1 marker line never appeared on stdout (exit code 1))');
  t.is(failedText(a, a.cells[1]!), '');
  t.is(failuresSentence(a), '3 of the 60 formal launches failed; they are counted and left out of every statistic (see the appendix "Failures").');
  t.is(failuresSentence(analysis(0)), null);
});

test('a summary difference shows the difference, its interval and the P50 ratio, and says when it is not detected', (t) => {
  const a = analysis(0);
  t.is(differenceCell(a, a.differences[0], 1), '200.0 [180.0, 220.0], ×2.11');
  const undetected = { ...a.differences[0]!, lowMs: -5, detected: false };
  t.is(differenceCell(a, undetected, 1), '200.0 [-5.0, 220.0], ×2.11, not detected');
  // sampled until decided, the sequential rule's word for no direction and no equivalence is undecided
  const adaptive = { ...a, decision: { rule: 'sequential' as const, minSessions: 3, maxSessions: 6, alpha: 0.05 } };
  t.is(
    differenceCell(adaptive, { ...undetected, verdict: { verdict: 'undecided', withinMargin: false, marginRelative: 0.05 } }, 1),
    '200.0 [-5.0, 220.0], ×2.11, undecided',
  );
  const disagree = {
    ...a.differences[0]!,
    detected: false,
    findings: { sessionsDisagreeInSize: true, direction: 'higher' as const, sizeUncertain: true, sessionsAloneExcluding: 3 },
  };
  t.is(differenceCell(a, disagree, 1), '200.0 [180.0, 220.0], ×2.11, size uncertain');
  const notReplicated = { ...disagree, findings: { ...disagree.findings, direction: null, sizeUncertain: false, sessionsAloneExcluding: 2 } };
  t.is(differenceCell(a, notReplicated, 1), '200.0 [180.0, 220.0], ×2.11, sessions disagree');
  t.is(differenceCell(a, undefined, 1), '-');
  t.false(differenceCell(a, a.differences[0], 1).includes('faster'));
});

test('the order-effect sentence names the flagged cells, or says none is flagged and counts the cells it could not resolve', (t) => {
  const a = analysis(0);
  const within = { ...a, cells: a.cells.map((c) => ({ ...c, carryover: 'within-size' as const })) } as AnalysisResult;
  t.is(orderEffectSentence(within), 'No Ready cell is flagged with an order effect (see "Order and carryover").');
  const ready = a.cells.filter((c) => c.metric === 'ready').length;
  let k = 0;
  const someUnresolved = {
    ...a,
    cells: a.cells.map((c) => ({ ...c, carryover: c.metric === 'ready' && k++ < 1 ? ('unresolved' as const) : ('within-size' as const) })),
  } as AnalysisResult;
  t.is(
    orderEffectSentence(someUnresolved),
    `No Ready cell is flagged with an order effect; the check could not resolve 1 of ${ready} Ready cells, as an order effect of the flagged size lies inside their intervals; see "Order and carryover".`,
  );
  const flagged = { ...a, cells: a.cells.map((c) => (c.path === 'docker' ? { ...c, orderEffect: true } : c)) } as AnalysisResult;
  t.regex(orderEffectSentence(flagged)!, /^1 Ready cell depends on its position in the round or the path before: shell docker cold;/);
});

test('when the order check resolved no Ready cell, the sentence says it could not resolve any, never that none is flagged', (t) => {
  const a = analysis(0);
  const ready = a.cells.filter((c) => c.metric === 'ready').length;
  const allUnresolved = { ...a, cells: a.cells.map((c) => ({ ...c, carryover: 'unresolved' as const })) } as AnalysisResult;
  t.is(
    orderEffectSentence(allUnresolved),
    `The order check could not resolve any of the ${ready} Ready cells: ${ready} are unresolved (an order effect of the flagged size lies inside their intervals), so this run neither finds nor rules out an order effect (see "Order and carryover").`,
  );
  let k = 0;
  const mixed = {
    ...a,
    cells: a.cells.map((c) => ({ ...c, carryover: c.metric === 'ready' && k++ < 1 ? ('not-estimated' as const) : ('unresolved' as const) })),
  } as AnalysisResult;
  t.regex(
    orderEffectSentence(mixed)!,
    new RegExp(`any of the ${ready} Ready cells: ${ready - 1} (is|are) unresolved .* and 1 had too few launches to estimate`),
  );
  t.false(orderEffectSentence(mixed)!.includes('No Ready cell is flagged'));
});

test('the accounting matches the sample table by phase, and the settle sentence reads the settle columns', (t) => {
  const row = (phase: Phase, ok: boolean, settle?: number, timedOut = false): SampleRow =>
    madeUpRow({
      phase,
      ok,
      settle_ms: settle ?? null,
      settle_timed_out: timedOut,
    });
  const rows = [row('preflight', true), row('warmup', true), row('formal', true, 10), row('formal', false, 30, true), row('formal', true, 20)];
  t.is(
    accountingSentence(rows, { launches: 4, failures: 0 }),
    "samples.csv holds 1 preflight, 1 warmup and 3 formal launches (1 failed); only formal launches enter the statistics, and no launch is excluded for its speed. The warmup stage's own 4 preflight launches (0 failed) are in its warmup.json, not in samples.csv.",
  );
  t.is(
    settleSentence(rows, 8192, 30),
    "Before every timed launch the harness synced and waited, untimed, until the host's dirty and writeback pages fell below 8,192 kB (at most 30 s): the wait took a median 20 ms and at most 30 ms, and 1 of 3 waits timed out.",
  );
  t.is(settleSentence([row('formal', true)], 8192, 30), null);
});

test('failure reasons are grouped by cause: timeouts and per-launch marker text collapse', (t) => {
  t.is(reasonLabel('timed out after 300000 ms (marker seen); process group killed'), 'timeout');
  t.is(reasonLabel('marker line "BENCHGRAPH-READY-L1" never appeared on stdout'), reasonLabel('marker line "BENCHGRAPH-READY-L2" never appeared on stdout'));
  t.true(reasonLabel('x'.repeat(200)).length <= 60);
  t.is(countText(analysis(0), cell('lazy', 30, 0, 190)), 'n=30 of 30');
});

test('the lowest Ready of a cohort and state says which path it is equivalent to, and which it is not told apart from', (t) => {
  const a = analysis(0);
  t.is(fastestCell(a, 'shell', 'cold', ['docker', 'lazy']), 'lazy');
  const tie = { ...a.differences[0]!, detected: false, lowMs: -5 };
  const undecided = { ...a, differences: [{ ...tie, verdict: { verdict: 'undecided' as const, withinMargin: false, marginRelative: 0.05 } }] };
  t.is(fastestCell(undecided, 'shell', 'cold', ['docker', 'lazy']), 'lazy (not told apart from docker)');
  // both intervals inside ±5% of docker's 190 ms
  const inside = { ...tie, lowMs: -5, highMs: 5, sessionLowMs: -6, sessionHighMs: 6 };
  const equivalent = { ...a, differences: [{ ...inside, verdict: { verdict: 'equivalent' as const, withinMargin: true, marginRelative: 0.05 } }] };
  t.is(fastestCell(equivalent, 'shell', 'cold', ['docker', 'lazy']), 'lazy (equivalent to docker within ±5% = ±9.5 ms, decided on [−3.2%, +3.2%])');
});
