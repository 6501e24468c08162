// Rewording never re-samples (issue 42): the code of every stage that takes
// samples (its key's code closure, as the engine computes it) holds no module
// of prose: no verdict words, no report or publishing code. A word changed in a
// verdict therefore leaves every sample key, and every archived replicate,
// as they were.
import test from 'ava';
import { projectStageRegistry } from '../harness/engine/stage-registry.js';

const SAMPLING = ['pin', 'prepare', 'warmup', 'sample', 'verify', 'commit-sample', 'effects-sample', 'restore-sweep-sample'];
/** Where the words of verdicts and reports live. */
const PROSE = [/^harness\/report\//, /^harness\/publish\//, /^harness\/document\//, /-words\.ts$/, /-phrases\.ts$/, /-text\.ts$/, /-wording\.ts$/];

test('the code closure of every sampling stage holds no module of verdict or report prose', async (t) => {
  const registry = projectStageRegistry(null);
  for (const kind of SAMPLING) {
    const code = Object.keys(registry.code(await registry.load(kind)));
    t.true(code.length > 0, kind);
    const prose = code.filter((f) => PROSE.some((p) => p.test(f)));
    t.deepEqual(prose, [], `${kind} reads prose: ${prose.join(', ')}`);
  }
  registry.close();
});

test('the verdict words live apart from the verdict rule: a sampling stage that judges verdicts does not import them', async (t) => {
  const registry = projectStageRegistry(null);
  const code = Object.keys(registry.code(await registry.load('sample')));
  t.true(code.includes('harness/analysis/comparison-verdict.ts'), 'the rule is in the sample key: adaptive sampling judges');
  t.false(code.includes('harness/comparison/verdict-words.ts'));
  t.false(code.includes('harness/comparison/rule-words.ts'));
  registry.close();
});
