// The answer paragraph says a cell the rule gave no direction in the summary
// table's own words (undecided, size uncertain, sessions disagree), so the two
// never differ. Made-up differences: a test of our own wording.
import test from 'ava';
import type { AnalysisResult, DifferenceResult } from '../harness/analysis/analysis-result.js';
import { answerSentence } from '../harness/report/answer-sentence.js';
import { outcomeWords } from '../harness/report/conclusions.js';
import { noDirectionText } from '../harness/report/difference-verdict-text.js';
import { differenceCell } from '../harness/report/launch-phrases.js';
import { MAY_NOT_HOLD, mayNotHoldOnRerun } from '../harness/report/rerun-wording.js';

const diff = (state: string, verdict: string, findings: Partial<DifferenceResult['findings']>): DifferenceResult =>
  ({
    cohort: 'shell',
    state,
    metric: 'ready',
    a: 'docker',
    b: 'lazy',
    observedMs: -3,
    lowMs: -6,
    highMs: 1,
    detected: false,
    verdict: { verdict, interval: null },
    findings: { detected: false, sessionsDisagreeInSize: false, sizeUncertain: false, ...findings },
  }) as unknown as DifferenceResult;

test('made-up differences: a size-uncertain cell and an undecided one are named as the summary table names them', (t) => {
  const differences = [diff('cold', 'undecided', { sizeUncertain: true, sessionsAloneExcluding: 3 } as never), diff('warm', 'undecided', {})];
  const a = { cells: [], differences, decision: { rule: 'sequential', minSessions: 5, maxSessions: 9, alpha: 0.05 } } as unknown as AnalysisResult;
  const words = differences.map((d) => outcomeWords(d, noDirectionText(a, d)));
  t.deepEqual(words, ['size uncertain', 'undecided']);
  const s = answerSentence(a, { a: 'docker', b: 'lazy' }, [
    { cohort: 'shell', state: 'cold' },
    { cohort: 'shell', state: 'warm' },
  ])!;
  t.is(s, 'docker against lazy: size uncertain in cold shell; undecided in warm shell.');
});

test('made-up differences: a lower or higher cell whose same-class rerun interval holds 0 says it may not hold on a rerun, in the answer and the summary cell', (t) => {
  const decided = (state: string, rerun: { lowMs: number; highMs: number }): DifferenceResult =>
    ({
      ...diff(state, 'higher', { direction: 'higher' }),
      observedMs: 10,
      lowMs: 4,
      highMs: 16,
      detected: true,
      rerun: { ...rerun, betweenRunShare: 0.5 },
    }) as unknown as DifferenceResult;
  const differences = [decided('cold', { lowMs: 2, highMs: 18 }), decided('warm', { lowMs: -3, highMs: 23 })];
  const cell = (path: string, state: string, p50Ms: number) => ({ cohort: 'shell', path, state, metric: 'ready', p50Ms });
  const cells = [cell('docker', 'cold', 30), cell('lazy', 'cold', 20), cell('docker', 'warm', 30), cell('lazy', 'warm', 20)];
  const a = { cells, differences, decision: { rule: 'sequential', minSessions: 5, maxSessions: 9, alpha: 0.05 } } as unknown as AnalysisResult;
  t.false(mayNotHoldOnRerun(differences[0]!));
  t.true(mayNotHoldOnRerun(differences[1]!));
  const s = answerSentence(a, { a: 'docker', b: 'lazy' }, [
    { cohort: 'shell', state: 'cold' },
    { cohort: 'shell', state: 'warm' },
  ])!;
  t.is(s, `docker against lazy: lazy reached Ready sooner than docker in cold shell (×1.50) and warm shell (×1.50; ${MAY_NOT_HOLD}) (P50 ratio docker/lazy).`);
  t.false(differenceCell(a, differences[0], 1).includes(MAY_NOT_HOLD));
  t.is(differenceCell(a, differences[1], 1), `10.0 [4.0, 16.0], ×1.50, ${MAY_NOT_HOLD}`);
});
