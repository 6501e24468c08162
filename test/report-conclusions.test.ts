// Conclusion sentences state how many launches each statistic covers and never
// claim more than the statistic shows (a lower median, not "faster").
import test from 'ava';
import type { AnalysisResult, CellStatistics, DifferenceResult } from '../harness/analysis/analysis-result.js';
import { cohortConclusions, contentSentences, countText, differenceText, formatters, reasonLabel } from '../harness/report/conclusions.js';
import type { ReportOptions } from '../harness/report/report-options.js';

const options: ReportOptions = { title: null, plots: false, msDecimals: 1, secondsDecimals: 2, percentDecimals: 1, notes: [], scope: null, paths: {} };
const f = formatters(options);

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

test('a cell sentence with failures says how many launches it covers, how many failed and why', (t) => {
  const text = cohortConclusions(analysis(3), 'shell', ['docker', 'lazy'], ['cold'], f).join(' ');
  t.true(text.includes('docker has a P50 of 400.0 ms (n=27 of 30; 3 failed (2 timeout, 1 marker line never appeared on stdout (exit code 1)))'), text);
  t.true(text.includes('lazy has a P50 of 190.0 ms (n=30 of 30)'), text);
  t.regex(
    text,
    /3 formal launches failed; they are counted but left out of every P50, cluster, dominance and interval above, so the slowest launches may be missing/,
  );
});

test('a dominance over a cell with failures says the failed launches are not among the observations', (t) => {
  const withFailures = cohortConclusions(analysis(3), 'shell', ['docker', 'lazy'], ['cold'], f).join(' ');
  t.regex(
    withFailures,
    /Each of the 30 valid cold lazy Ready values is shorter than every valid cold docker one, but failed launches are not among them \(cold docker: 3 failed [^)]*\)+, so this holds for the launches that succeeded only\./,
  );
  const clean = cohortConclusions(analysis(0), 'shell', ['docker', 'lazy'], ['cold'], f).join(' ');
  t.true(clean.includes('Each of the 30 cold lazy Ready values is shorter than every cold docker one.'), clean);
  t.false(clean.includes('valid'));
  t.true(clean.includes('No formal launch failed.'));
});

test('a detected difference of medians says which path has the lower median, not which is faster', (t) => {
  const text = differenceText(difference, f, 'Ready', 30);
  t.true(text.endsWith(': lazy has the lower median Ready'), text);
  t.false(text.includes('faster'));
  t.true(text.includes('over 28 of 30 paired rounds (2 left out because a launch of docker or lazy failed or has no value)'), text);
  t.true(differenceText({ ...difference, observedMs: -200, lowMs: -220, highMs: -180 }, f, 'Ready').endsWith(': docker has the lower median Ready'));
  t.true(differenceText({ ...difference, lowMs: -5, detected: false }, f, 'Ready', 30).endsWith('the interval contains 0, no difference is detected'));
});

test('failure reasons are grouped by cause: timeouts and per-launch marker text collapse', (t) => {
  t.is(reasonLabel('timed out after 300000 ms (marker seen); process group killed'), 'timeout');
  t.is(reasonLabel('marker line "BENCHGRAPH-READY-L1" never appeared on stdout'), reasonLabel('marker line "BENCHGRAPH-READY-L2" never appeared on stdout'));
  t.true(reasonLabel('x'.repeat(200)).length <= 60);
  t.is(countText(analysis(0), cell('lazy', 30, 0, 190)), 'n=30 of 30');
});

test('a content count that varies within its cell is stated as its range and said to vary, not dropped', (t) => {
  const bytes = (path: string, min: number, max: number) => ({
    cohort: 'shell',
    path,
    state: 'cold',
    contentBytes: { n: 30, min, median: min, max, identical: min === max, distinct: min === max ? 1 : 2 },
  });
  const a = { ...analysis(0), bytes: [bytes('docker', 1000, 1000), bytes('lazy', 300, 364)] } as unknown as AnalysisResult;
  const text = contentSentences(a, 'shell', ['cold'], f).join(' ');
  t.true(
    text.includes('Cold content is 1,000 bytes for docker versus 300–364 bytes for lazy, 70.0% less for lazy at the medians (varies within the lazy cell).'),
    text,
  );
  const same = { ...analysis(0), bytes: [bytes('docker', 1000, 1000), bytes('lazy', 300, 300)] } as unknown as AnalysisResult;
  t.true(contentSentences(same, 'shell', ['cold'], f).join(' ').includes('versus 300 bytes for lazy, 70.0% less for lazy (identical within each cell).'));
});
