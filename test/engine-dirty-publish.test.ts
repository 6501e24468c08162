// A report published into a git work tree is traceable to one commit: with
// uncommitted tracked changes the run is refused before anything runs (exit
// 2, naming the files and --allow-dirty); published reports and lock files
// are run outputs and never make the tree dirty. Real git, real smoke runs.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, smokeProject } from './helpers/cli.js';

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });

function committedProject(): string {
  const dir = smokeProject();
  git(dir, 'init', '-q');
  git(dir, 'add', 'pipeline.yaml');
  git(dir, 'commit', '-q', '-m', 'the experiment');
  return dir;
}

test('a clean work tree publishes, and its own report and lock do not make the next run dirty', async (t) => {
  const dir = committedProject();
  const first = await runCli(['run', '--set', 'design.rounds=2', '--set', 'analysis.bootstrap.resamples=100'], dir);
  t.is(first.code, 0, first.stderr);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'published');
  writeFileSync(join(dir, 'reports', 'smoke', 'report.md'), 'edited by hand\n'); // a tracked run output
  const again = await runCli(['run', '--set', 'design.rounds=2', '--set', 'analysis.bootstrap.resamples=200'], dir);
  t.is(again.code, 0, again.stderr);
});

test('uncommitted changes to the experiment refuse the run before any stage, naming the file and --allow-dirty', async (t) => {
  const dir = committedProject();
  writeFileSync(join(dir, 'pipeline.yaml'), readFileSync(join(dir, 'pipeline.yaml'), 'utf8').replace('rounds: 6', 'rounds: 2'));
  const r = await runCli(['run'], dir);
  t.is(r.code, 2, r.stderr);
  t.regex(
    r.stderr.trim(),
    /^error: \S*pipeline\.yaml: the git work tree \S+ has uncommitted changes \(1 file: pipeline\.yaml\).*\(commit the changes, or pass --allow-dirty/,
  );
  t.false(existsSync(join(dir, '.data', 'stages')), 'nothing ran');
  const allowed = await runCli(['run', '--allow-dirty', '--set', 'analysis.bootstrap.resamples=100'], dir);
  t.is(allowed.code, 0, allowed.stderr);
  t.true(existsSync(join(dir, 'reports', 'smoke', 'report.md')));
});
