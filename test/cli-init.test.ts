// `pipeline init` writes a commented pipeline.yaml that runs as written
// (launch: without root, in seconds), and never overwrites one.
import test from 'ava';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';

test('the pipeline.yaml pipeline init writes runs as written and publishes a report', async (t) => {
  t.timeout(120_000);
  const dir = tempDir('benchgraph-init-');
  const init = await runCli(['init', 'exp'], dir);
  t.is(init.code, 0, init.stderr);
  t.regex(init.stdout, /^wrote exp\/pipeline\.yaml \(launch experiment, runs without root in seconds\)\nnext: cd exp && pipeline run\n$/);
  const started = Date.now();
  const run = await runCli(['run'], join(dir, 'exp'));
  t.is(run.code, 0, run.stderr);
  t.true(Date.now() - started < 60_000, 'it runs in seconds, not minutes');
  t.regex(run.stderr + run.stdout, /sample: 20 formal launches, 0 failures/);
  t.true(existsSync(join(dir, 'exp', 'reports', 'my-experiment', 'report.md')));
});

test('a second pipeline init refuses to overwrite, exit 2, and leaves the file as it was', async (t) => {
  const dir = tempDir('benchgraph-init-');
  t.is((await runCli(['init'], dir)).code, 0);
  writeFileSync(join(dir, 'pipeline.yaml'), '# mine\n');
  const again = await runCli(['init'], dir);
  t.is(again.code, 2);
  t.regex(again.stderr, /^error: pipeline\.yaml: already exists; init never overwrites \(pick another folder: pipeline init DIR\)\n$/);
  t.is(readFileSync(join(dir, 'pipeline.yaml'), 'utf8'), '# mine\n');
});

for (const kind of ['effects', 'commit']) {
  test(`pipeline init --kind ${kind} writes a pipeline that loads and plans`, async (t) => {
    const dir = tempDir('benchgraph-init-');
    const init = await runCli(['init', '--kind', kind], dir);
    t.is(init.code, 0, init.stderr);
    t.regex(init.stdout, new RegExp(`\\(${kind} experiment, needs root\\)`));
    const plan = await runCli(['run', '--dry-run'], dir);
    t.is(plan.code, 0, plan.stderr);
    t.regex(plan.stdout + plan.stderr, /pin\s+would-run/);
  });
}

test('an unknown init kind is a user error listing the kinds', async (t) => {
  const r = await runCli(['init', '--kind', 'rocket'], tempDir('benchgraph-init-'));
  t.is(r.code, 2);
  t.regex(r.stderr, /--kind: unknown kind 'rocket' \(use one of: launch, effects, commit\)/);
});
