// The analysis and report sections are typed once, when the pipeline loads:
// every stage reads `rules` and `reportOptions`, and a value the typing
// refuses is an error with the file, line and key.
import test from 'ava';
import { UserError } from '../harness/errors.js';
import { loadPipeline } from '../harness/config/load-pipeline.js';
import { knownStageKinds } from '../harness/engine/stage-registry.js';
import { keyPath, typedSections } from '../harness/config/typed-sections.js';
import { parseYamlSource } from '../harness/config/yaml-source.js';
import { analysisRuleKeys, defaultAnalysisRules } from '../harness/config/analysis-rules.js';
import { reportOptionKeys } from '../harness/config/report-options.js';

test('loading a pipeline returns its typed analysis rules and report options, with the defaults applied', (t) => {
  const c = loadPipeline('pipelines/smoke.yaml', { knownKinds: knownStageKinds() });
  t.deepEqual(c.rules.comparisons, [{ a: 'paused', b: 'direct' }]);
  t.is(c.rules.bootstrap.resamples, 500);
  t.is(c.rules.bootstrap.confidence, defaultAnalysisRules.bootstrap.confidence);
  t.deepEqual(c.rules.practical, defaultAnalysisRules.practical);
  t.is(c.reportOptions.msDecimals, 1);
  t.true(c.reportOptions.plots);
});

test('a key path names array items by index', (t) => {
  t.deepEqual(keyPath('analysis.comparisons[1].factor'), ['analysis', 'comparisons', 1, 'factor']);
  t.deepEqual(keyPath('report.ms_decimals'), ['report', 'ms_decimals']);
});

test('a value the typing refuses is an error naming the file, the line of its key, and the key', (t) => {
  const text = 'experiment: {name: e}\nanalysis:\n  comparisons:\n    - {a: x, b: y}\n    - {a: x, b: x}\n';
  const src = parseYamlSource('p.yaml', text);
  const e = t.throws(() => typedSections(src, src.value as Record<string, unknown>), { instanceOf: UserError })!;
  t.is(e.place.file, 'p.yaml');
  t.is(e.place.line, 5);
  t.is(e.place.key, 'analysis.comparisons[1]');
});

test('every typed field names the key of pipeline.yaml it is read from, in its own section', (t) => {
  t.deepEqual(Object.keys(analysisRuleKeys).sort(), Object.keys(defaultAnalysisRules).sort());
  for (const key of Object.values(analysisRuleKeys)) t.regex(key, /^analysis\.[a-z0-9_]+$/);
  for (const key of Object.values(reportOptionKeys)) t.regex(key, /^report\.[a-z0-9_]+$/);
});
