// The answer paragraph says a cell the rule gave no direction in the summary
// table's own words (undecided, size uncertain, sessions disagree), so the two
// never differ. Made-up differences: a test of our own wording.
import test from 'ava';
import type { AnalysisResult, DifferenceResult } from '../harness/analysis/analysis-result.js';
import { answerSentence } from '../harness/report/answer-sentence.js';
import { outcomeWords } from '../harness/report/conclusions.js';
import { noDirectionText } from '../harness/report/difference-verdict-text.js';

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
