// `pipeline measure` and the CLI's --help/--version, run as the real command
// in a child process with real launches.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, runCli, tempDir } from './helpers/cli.js';

test('a command without a marker is measured for Completion and Ready shows as not measured', async (t) => {
  const r = await runCli(['measure', '-r', '3', '--', 'sh', '-c', 'echo hi'], tempDir());
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /Completion\s+median \d+\.\d+ ms/);
  t.regex(r.stdout, /Ready\s+not measured/);
});

test('--ready first-line measures Ready to the first stdout line', async (t) => {
  const r = await runCli(['measure', '-r', '3', '--ready', 'first-line', '--', 'sh', '-c', 'echo hi; sleep 0.02'], tempDir());
  t.is(r.code, 0, r.stderr);
  const ready = Number(/Ready \(1st line\)\s+median (\d+\.\d+) ms/.exec(r.stdout)?.[1]);
  const completion = Number(/Completion\s+median (\d+\.\d+) ms/.exec(r.stdout)?.[1]);
  t.true(ready < completion, r.stdout);
});

test('a failing command stops the measurement with its reason and exit code 1', async (t) => {
  const r = await runCli(['measure', '-r', '5', '--', 'sh', '-c', 'echo broken >&2; exit 3'], tempDir());
  t.is(r.code, 1);
  t.regex(r.stderr, /failed in formal round 1: exit code 3; stderr: broken/);
  t.regex(r.stderr, /--ignore-failure/);
});

test('-i records every failed run and goes on', async (t) => {
  const r = await runCli(['measure', '-i', '-r', '4', '--', 'sh', '-c', 'exit 3'], tempDir());
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /4 runs, 4 failed/);
  t.regex(r.stdout, /first failure: exit code 3/);
});

test('an unknown measure flag is one line naming it, with exit code 2', async (t) => {
  const r = await runCli(['measure', '--frobnicate', '--', 'true'], tempDir());
  t.is(r.code, 2);
  t.is(r.stderr.trim().split('\n').length, 1);
  t.regex(r.stderr, /^error: --frobnicate: unknown flag/);
});

test('--help works on pipeline itself and on every command it lists', async (t) => {
  const cwd = tempDir();
  const top = await runCli(['--help'], cwd);
  t.is(top.code, 0);
  const names = [...top.stdout.split('commands:\n')[1]!.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]!);
  t.true(names.includes('measure') && names.length >= 5, top.stdout);
  for (const name of names) {
    const r = await runCli([name, '--help'], cwd);
    t.is(r.code, 0, `${name}: ${r.stderr}`);
    t.true(r.stdout.startsWith(`usage: pipeline ${name}`), `${name}: ${r.stdout}`);
    t.regex(r.stdout, /-h, --help/);
  }
});

test('--version prints the version of package.json', async (t) => {
  const r = await runCli(['--version'], tempDir());
  const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  t.is(r.code, 0);
  t.is(r.stdout.trim(), `pipeline (benchgraph) ${version}`);
});
