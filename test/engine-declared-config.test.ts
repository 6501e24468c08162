// A running stage sees only the config it declares in `reads`: reading any
// other key throws naming the key, so an undeclared read fails in tests
// instead of leaving the stage's key blind to that key. (Our own logic, with
// a made-up config.)
import test from 'ava';
import type { PipelineConfig } from '../harness/config/pipeline-config.js';
import { declaredConfig } from '../harness/engine/declared-config.js';
import { sectionsOf } from '../harness/config/typed-sections.js';

const analysis = { bootstrap: { resamples: 10 }, comparisons: [{ a: 'x', b: 'y' }] };
const config = {
  ...sectionsOf({ analysis, report: { title: 'T' } }),
  file: '/p/pipeline.yaml',
  stages: [],
  executor: { kind: 'local' },
  experiment: { name: 'e', question: 'q' },
  design: { sessions: 3, rounds: 10, settle: { enabled: true, dirty_kb: 8192 } },
  analysis,
  report: { title: 'T' },
} as unknown as PipelineConfig;

test('a declared section, a declared dotted key and the always-visible keys read as they are', (t) => {
  const c = declaredConfig(config, 'toy', ['experiment', 'design.sessions', 'design.settle']);
  t.is(c.experiment.name, 'e');
  t.is(c.design.sessions, 3);
  t.is(c.design.settle.dirty_kb, 8192);
  t.is(c.file, '/p/pipeline.yaml');
  t.is(c.executor.kind, 'local');
});

test('an undeclared section or key throws, naming the key and the stage', (t) => {
  const c = declaredConfig(config, 'toy', ['design.sessions']);
  t.throws(() => c.design.rounds, { message: /stage kind toy reads config key 'design\.rounds' but does not declare it/ });
  t.throws(() => c.analysis, { message: /'analysis'/ });
});

test('serializing the view writes the declared keys only', (t) => {
  const c = declaredConfig(config, 'toy', ['experiment', 'design.sessions']);
  t.deepEqual(JSON.parse(JSON.stringify(c)), {
    file: '/p/pipeline.yaml',
    stages: [],
    executor: { kind: 'local' },
    experiment: { name: 'e', question: 'q' },
    design: { sessions: 3 },
  });
});

test('a typed section shows the fields whose keys are declared, and throws for the others naming the key to declare', (t) => {
  const c = declaredConfig(config, 'toy', ['analysis.bootstrap', 'report']);
  t.is(c.rules.bootstrap.resamples, 10);
  t.is(c.rules.bootstrap.confidence, 0.95, 'the defaults were applied at load');
  t.throws(() => c.rules.comparisons, { message: /stage kind toy reads config key 'rules\.comparisons' .*add 'analysis\.comparisons' to reads/ });
  t.is(c.reportOptions.title, 'T', 'a whole declared section shows every field');
  t.deepEqual(Object.keys(JSON.parse(JSON.stringify(c.rules)) as object), ['bootstrap'], 'a Slurm job spec carries the declared fields only');
  const none = declaredConfig(config, 'toy', ['experiment']);
  t.throws(() => none.rules.bootstrap, { message: /add 'analysis\.bootstrap' to reads/ });
  t.false('rules' in JSON.parse(JSON.stringify(none)), 'no typed field declared: no typed section in the spec');
  t.is(declaredConfig(config, 'toy', ['analysis']).rules, config.rules, 'the whole section declared: the object itself, which a worker can clone');
});
