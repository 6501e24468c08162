// Comparisons along another factor, on made-up rows (our own logic): listing
// only unit or condition comparisons keeps every comparison of paths, a level
// that was never sampled is an error naming its key, and a level sampled on
// one path only is compared there alone.
import test from 'ava';
import { analysisRules } from '../harness/config/analysis-rules.js';
import { resolveComparisons } from '../harness/analysis/difference-results.js';
import { factorDifferences } from '../harness/analysis/factor-differences.js';
import type { SampleData, ValueRow } from '../harness/analysis/sample-data.js';
import { UserError } from '../harness/errors.js';

/** Rows of 3 sessions × 4 rounds for each (cohort, path) given, cold and warm; Ready = base + a fixed step per cohort. */
function madeUp(cells: [cohort: string, path: string][]): Pick<SampleData, 'cells' | 'values'> {
  const values: ValueRow[] = [];
  for (const [cohort, path] of cells)
    for (const state of ['cold', 'warm'])
      for (let session = 1; session <= 3; session++)
        for (let round = 1; round <= 4; round++) {
          const ms = 100 + (cohort === 'big' ? 40 : 0) + (state === 'cold' ? 10 : 0) + ((session * 7 + round * 3) % 5);
          values.push({
            launchId: `${cohort}.${path}.${state}.${session}.${round}`,
            cohort,
            path,
            state,
            session,
            round,
            position: 0,
            previousPath: null,
            readyMs: ms,
            completionMs: ms + 1,
            contentBytes: null,
            responseBytes: null,
          });
        }
  const cellsOut = cells.flatMap(([cohort, path]) => ['cold', 'warm'].map((state) => ({ cohort, path, state, launches: 12, failures: 0 })));
  return { cells: cellsOut, values };
}

test('only comparisons along another factor listed: every pair of paths is still compared (made-up)', (t) => {
  const rules = analysisRules({ comparisons: [{ factor: 'condition', a: 'cold', b: 'warm' }] });
  t.deepEqual(resolveComparisons(rules.comparisons, ['crun', 'docker', 'lazy']), [
    { a: 'crun', b: 'docker' },
    { a: 'crun', b: 'lazy' },
    { a: 'docker', b: 'lazy' },
  ]);
  const withPaths = analysisRules({
    comparisons: [
      { a: 'lazy', b: 'docker' },
      { factor: 'unit', a: 'big', b: 'small' },
    ],
  });
  t.deepEqual(resolveComparisons(withPaths.comparisons, ['crun', 'docker', 'lazy']), [{ a: 'lazy', b: 'docker' }]);
});

test('a unit never sampled is an error naming the comparison and the sampled units (made-up)', (t) => {
  const data = madeUp([
    ['big', 'lazy'],
    ['small', 'lazy'],
  ]);
  const rules = analysisRules({ metrics: ['ready'], bootstrap: { resamples: 200 }, comparisons: [{ a: 'x', b: 'y', factor: 'unit' }] });
  const e = t.throws(() => factorDifferences(data, { ...rules, comparisons: [{ factor: 'unit', a: 'big', b: 'smal' }] }, () => null));
  t.true(e instanceof UserError);
  t.regex(e!.message, /cohort "smal" has no formal samples/);
  t.is((e as UserError).place.key, 'analysis.comparisons[0].b');
});

test('a unit sampled on one path only is compared on that path alone, cold and warm; a condition on every cohort and path (made-up)', (t) => {
  const data = madeUp([
    ['big', 'lazy'],
    ['small', 'lazy'],
    ['small', 'docker'],
  ]);
  const rules = analysisRules({
    metrics: ['ready'],
    bootstrap: { resamples: 200 },
    comparisons: [
      { factor: 'unit', a: 'big', b: 'small' },
      { factor: 'condition', a: 'cold', b: 'warm' },
    ],
  });
  const out = factorDifferences(data, rules, () => 100);
  const units = out.filter((d) => d.factor === 'unit');
  t.deepEqual(
    units.map((d) => `${d.path} ${d.state}`),
    ['lazy cold', 'lazy warm'],
  );
  for (const d of units) {
    t.is(d.observedMs, 40); // the made-up step between the cohorts, the same in every round
    t.is(d.rounds, 12);
    t.is(d.sessions, 3);
    t.is(d.cohort, '');
  }
  const conditions = out.filter((d) => d.factor === 'condition');
  t.deepEqual(conditions.map((d) => `${d.cohort} ${d.path}`).sort(), ['big lazy', 'small docker', 'small lazy']);
  for (const d of conditions) t.is(d.observedMs, 10);
});
