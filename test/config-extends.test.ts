// `extends:` in the pipeline loader: a variant file states only what differs
// from the file it extends; a missing or cyclic extends is one line naming
// file and line, exit 2.
import test from 'ava';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadPipeline } from '../harness/config/load-pipeline.js';
import { deepMerge } from '../harness/config/pipeline-extends.js';
import { knownStageKinds } from '../harness/engine/stage-registry.js';
import { UserError } from '../harness/errors.js';
import { projectRoot, runCli, tempDir } from './helpers/cli.js';

const base = `experiment:
  name: made-up-base
  question: Q?
design:
  rounds: 5
  seed: base-1
stages:
  - id: pin
    uses: pin
`;

function folder(files: Record<string, string>): string {
  const dir = tempDir('bg-extends-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

test('mappings merge, lists and scalars are replaced, null removes a key', (t) => {
  t.deepEqual(deepMerge({ a: { x: 1, y: [1, 2] }, b: 2, c: 3 }, { a: { y: [3] }, b: null, d: 4 }), { a: { x: 1, y: [3] }, c: 3, d: 4 });
});

test('a variant that extends a file gets its sections with its own keys laid over them', (t) => {
  const dir = folder({ 'base.yaml': base, 'pipeline.yaml': 'extends: base.yaml\nexperiment:\n  name: made-up-variant\ndesign:\n  rounds: 2\n' });
  try {
    const c = loadPipeline(join(dir, 'pipeline.yaml'), { knownKinds: knownStageKinds() });
    t.is(c.experiment.name, 'made-up-variant');
    t.is(c.experiment.question, 'Q?');
    t.is(c.design.rounds, 2);
    t.is(c.design.seed, 'base-1');
    t.deepEqual(
      c.stages.map((s) => s.id),
      ['pin'],
    );
    t.false('extends' in c);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the commit-diff mini variant extends commit-diff.yaml and keeps its own image, sweep and stages', (t) => {
  const c = loadPipeline(join(projectRoot, 'pipelines', 'commit-diff-mini.fragment.yaml'), { knownKinds: knownStageKinds() });
  t.is(c.experiment.name, 'commit-diff-mini');
  t.deepEqual(Object.keys(c.artifacts?.images ?? {}), ['busybox']);
  t.is(c.design.sessions, 1, "the base's 3 sessions removed: the schema default");
  t.deepEqual(c.design.matrix, [{ total_mb: [2, 40], file_count: [20], change_bytes: [1024] }]);
  t.is(c.stages.find((s) => s.id === 'commit-report')!.with['previous_run'], undefined);
});

test("the real-mini variant extends lazy-startup.fragment.yaml: the default's services and three paths, its own busybox cohort and stages", (t) => {
  const c = loadPipeline(join(projectRoot, 'pipelines', 'real-mini.fragment.yaml'), { knownKinds: knownStageKinds() });
  t.is(c.experiment.name, 'real-mini');
  t.deepEqual(Object.keys(c.artifacts?.images ?? {}), ['busybox']);
  t.deepEqual(Object.keys(c.cohorts), ['shell']);
  t.is(c.cohorts['shell']!.image, 'busybox');
  t.is(c.cohorts['shell']!.expect.exit_code, 0, "the base's expect kept");
  t.deepEqual(Object.keys(c.paths), ['docker', 'lazy', 'oci-full']);
  t.deepEqual(Object.keys(c.services), ['registry', 'cache', 'engine']);
  t.is(c.design.rounds, 3);
  t.deepEqual(
    c.stages.map((s) => s.id),
    ['pin', 'prepare', 'warmup', 'sample', 'verify', 'analyze', 'report'],
  );
});

test('the restore-sweep mini variant extends restore-sweep.yaml and keeps its question, comparisons and image', (t) => {
  const c = loadPipeline(join(projectRoot, 'pipelines', 'restore-sweep-mini.fragment.yaml'), { knownKinds: knownStageKinds() });
  const full = loadPipeline(join(projectRoot, 'pipelines', 'restore-sweep.yaml'), { knownKinds: knownStageKinds() });
  t.is(c.experiment.name, 'restore-sweep-mini');
  t.is(c.experiment.question, full.experiment.question);
  t.deepEqual(c.analysis, { ...full.analysis, bootstrap: { ...(full.analysis['bootstrap'] as object), resamples: 200 } });
  t.deepEqual(c.artifacts, full.artifacts);
  t.deepEqual([c.design.sessions, c.design.rounds, c.design.warmup_rounds], [2, 2, 0]);
  t.deepEqual(c.stages.find((s) => s.id === 'sample')!.with['heap_mib'], [2, 16]);
});

test("lazy-startup.fragment.yaml states the default experiment's artifacts, services, cohorts and its paths as pipeline.yaml does", (t) => {
  const read = (file: string): Record<string, Record<string, unknown>> => parse(readFileSync(join(projectRoot, file), 'utf8'));
  const fragment = read('pipelines/lazy-startup.fragment.yaml');
  const pipeline = read('pipeline.yaml');
  t.deepEqual(Object.keys(fragment), ['artifacts', 'services', 'cohorts', 'paths']);
  for (const section of ['artifacts', 'services', 'cohorts'] as const) t.deepEqual(fragment[section], pipeline[section], section);
  for (const [id, path] of Object.entries(fragment['paths']!)) t.deepEqual(path, pipeline['paths']![id], `paths.${id}`);
});

for (const [name, files, message] of [
  ['a missing file', { 'pipeline.yaml': 'experiment:\n  name: x\nextends: nowhere.yaml\n' }, /pipeline\.yaml:3:10: extends: no such file nowhere\.yaml/],
  [
    'a cycle',
    { 'a.yaml': 'extends: b.yaml\n', 'b.yaml': 'extends: pipeline.yaml\n', 'pipeline.yaml': 'extends: a.yaml\n' + base },
    /b\.yaml:1:10: extends: a cycle: .*pipeline\.yaml -> .*a\.yaml -> .*b\.yaml -> .*pipeline\.yaml/,
  ],
] as const) {
  test(`extends naming ${name} is a user error with file and line, exit 2`, async (t) => {
    const dir = folder(files);
    try {
      const e = t.throws(() => loadPipeline(join(dir, 'pipeline.yaml'), { knownKinds: knownStageKinds() }));
      t.true(e instanceof UserError);
      const run = await runCli(['run', '--dry-run'], dir);
      t.is(run.code, 2, run.stderr);
      t.regex(run.stderr, message);
      t.notRegex(run.stderr, /\n\s+at /, 'no stack trace');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
