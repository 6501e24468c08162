import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { executions, QUICK, runCli, smokeProject, stagesRan } from './helpers/cli.js';

test('a second run of an unchanged pipeline reuses every stage and runs no stage code', async (t) => {
  const dir = smokeProject();
  const first = await runCli(['run', '--json', ...QUICK], dir);
  t.is(first.code, 0, first.stderr);
  const before = executions(dir).length;
  t.true(before >= 4);
  const second = await runCli(['run', '--json', ...QUICK], dir);
  t.is(second.code, 0, second.stderr);
  t.deepEqual(stagesRan(second), []);
  t.is(executions(dir).length, before);
});

test('changing only an analysis rule reruns exactly analyze and report', async (t) => {
  const dir = smokeProject();
  t.is((await runCli(['run', '--json', ...QUICK], dir)).code, 0);
  const r = await runCli(['run', '--json', ...QUICK, '--set', 'analysis.bootstrap.resamples=300'], dir);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(stagesRan(r), ['analyze', 'report']);
});

test('changing an analysis rule in the file reruns exactly analyze and report', async (t) => {
  const dir = smokeProject();
  const file = join(dir, 'pipeline.yaml');
  t.is((await runCli(['run', '--json', '--set', 'design.rounds=3'], dir)).code, 0);
  writeFileSync(file, readFileSync(file, 'utf8').replace('resamples: 500', 'resamples: 400'));
  const r = await runCli(['run', '--json', '--set', 'design.rounds=3'], dir);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(stagesRan(r), ['analyze', 'report']);
});

test('changing a sampling parameter reruns the sampling session and everything after it', async (t) => {
  const dir = smokeProject();
  t.is((await runCli(['run', '--json', ...QUICK], dir)).code, 0);
  const r = await runCli(['run', '--json', '--set', 'design.rounds=4', '--set', 'analysis.bootstrap.resamples=200'], dir);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(stagesRan(r), ['warmup', 'sample', 'analyze', 'report']);
});

test('editing a comment or reordering keys in the pipeline file reruns nothing', async (t) => {
  const dir = smokeProject();
  const file = join(dir, 'pipeline.yaml');
  t.is((await runCli(['run', '--json', ...QUICK], dir)).code, 0);
  const text = readFileSync(file, 'utf8');
  // comment added, and the design keys written in another order
  const reordered = text
    .replace(
      'design:\n  preflight: 1\n  warmup_rounds: 1\n  rounds: 6\n  seed: smoke-1\n  timeout_s: 10\n',
      'design:\n  timeout_s: 10   # seconds\n  seed: smoke-1\n  rounds: 6\n  warmup_rounds: 1\n  preflight: 1\n',
    )
    .replace(/^experiment:/m, '# an edited comment\nexperiment:');
  t.not(reordered, text);
  t.true(reordered.includes('timeout_s: 10   # seconds'));
  writeFileSync(file, reordered);
  const r = await runCli(['run', '--json', ...QUICK], dir);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(stagesRan(r), []);
});

test('--only runs the named stages and reuses frozen upstream outputs', async (t) => {
  const dir = smokeProject();
  t.is((await runCli(['run', '--json', ...QUICK], dir)).code, 0);
  const r = await runCli(['run', '--json', ...QUICK, '--force', 'analyze', '--only', 'analyze'], dir);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(stagesRan(r), ['analyze']);
});

test('--only refuses a stage whose upstream has no frozen output, naming the flag', async (t) => {
  const dir = smokeProject();
  const r = await runCli(['run', '--only', 'analyze'], dir);
  t.is(r.code, 2);
  t.regex(r.stderr, /--only: stage 'sample' has no frozen output/);
});

test('status explains a stale stage by the key that changed', async (t) => {
  const dir = smokeProject();
  t.is((await runCli(['run', ...QUICK], dir)).code, 0);
  const r = await runCli(['status', '--set', 'design.rounds=3', '--set', 'analysis.bootstrap.resamples=2000'], dir);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /STALE\s+analyze \(analyze\): analysis\.bootstrap\.resamples changed 200 -> 2000/);
  t.regex(r.stdout, /fresh\s+sample/);
});

test('status says when a fresh stage is not the one the lock names: the last run used another configuration (#47 item 8)', async (t) => {
  const dir = smokeProject();
  t.is((await runCli(['run', ...QUICK], dir)).code, 0);
  // the last run, and so the lock and the published report, used another analysis rule
  t.is((await runCli(['run', '--set', 'design.rounds=3', '--set', 'analysis.bootstrap.resamples=300'], dir)).code, 0);
  const r = await runCli(['status', ...QUICK], dir);
  t.is(r.code, 0, r.stderr);
  t.regex(
    r.stdout,
    /fresh\s+analyze \(analyze\): its output for this file's key is frozen, but the lock names key [0-9a-f]{12}: the last run, and what it published, used another configuration/,
  );
  t.regex(r.stdout, /fresh\s+sample \(sample\)\n/, "a stage whose key is the lock's says nothing more");
});

test('a stage rerun alone gets the same inputs as in the full run, volatile warmup included, so its output is byte-identical', async (t) => {
  const dir = smokeProject();
  t.is((await runCli(['run', ...QUICK], dir)).code, 0);
  const report = join(dir, 'reports', 'smoke', 'report.md');
  const before = readFileSync(report, 'utf8');
  const r = await runCli(['run', '--json', ...QUICK, '--force', 'report'], dir);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(stagesRan(r), ['report']);
  t.is(readFileSync(report, 'utf8'), before);
});
