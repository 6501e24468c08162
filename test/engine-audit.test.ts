import test from 'ava';
import { appendFileSync, readdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QUICK, projectRoot, runCli, smokeProject } from './helpers/cli.js';
import { CLI_NODE_FLAGS } from '../harness/process/cli-argv.js';

async function frozenProject(): Promise<string> {
  const dir = smokeProject();
  const r = await runCli(['run', ...QUICK], dir);
  if (r.code !== 0) throw new Error(r.stderr);
  return dir;
}

function outputsOf(dir: string, kind: string): string {
  const base = join(dir, '.data', 'stages', kind);
  const [key] = readdirSync(base);
  return join(base, key!, 'outputs');
}

test('audit passes on an untouched store', async (t) => {
  const dir = await frozenProject();
  const r = await runCli(['audit', ...QUICK], dir);
  t.is(r.code, 0, r.stdout + r.stderr);
  t.regex(r.stdout, /0 problems/);
});

test('audit fails naming a frozen output file whose bytes changed', async (t) => {
  const dir = await frozenProject();
  const file = join(outputsOf(dir, 'analyze'), 'analysis.json');
  const text = readFileSync(file, 'utf8');
  writeFileSync(
    file,
    text.replace(/\d/, (d) => String((Number(d) + 1) % 10)),
  );
  const r = await runCli(['audit', ...QUICK], dir);
  t.is(r.code, 1);
  t.regex(r.stdout, /CHANGED\s+\S*stages\/analyze\/[0-9a-f]+\/outputs\/analysis\.json/);
});

test('audit fails naming a frozen output file that was removed', async (t) => {
  const dir = await frozenProject();
  rmSync(join(outputsOf(dir, 'sample'), 'samples.duckdb'));
  const r = await runCli(['audit', ...QUICK], dir);
  t.is(r.code, 1);
  t.regex(r.stdout, /MISSING\s+\S*outputs\/samples\.duckdb/);
});

test('audit fails naming a published report file that was edited', async (t) => {
  const dir = await frozenProject();
  appendFileSync(join(dir, 'reports', 'smoke', 'report.md'), '\nA sentence nobody measured.\n');
  const r = await runCli(['audit', ...QUICK], dir);
  t.is(r.code, 1);
  t.regex(r.stdout, /CHANGED\s+reports\/smoke\/report\.md/);
});

test('a second concurrent run on the same data folder refuses, naming the holder pid', async (t) => {
  const dir = smokeProject();
  const { spawn } = await import('node:child_process');
  // A real process of ours holds the lock through the same code as a run.
  const holder = spawn(process.execPath, [...CLI_NODE_FLAGS, join(projectRoot, 'dist', 'test', 'helpers', 'hold-data-lock.js'), join(dir, '.data'), '30000'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise<void>((resolve) => holder.stdout.on('data', (b) => String(b).startsWith('held') && resolve()));
    const r = await runCli(['run', ...QUICK], dir);
    t.is(r.code, 2);
    t.regex(r.stderr, new RegExp(`another pipeline run \\(pid ${holder.pid}\\) is using this data folder`));
  } finally {
    holder.kill();
  }
});

test('while another run holds the lock, a rerun with nothing to write reports its stages reused and touches nothing; one that must run a stage is refused', async (t) => {
  const dir = await frozenProject();
  const before = readFileSync(join(dir, 'pipeline.lock'), 'utf8');
  const { spawn } = await import('node:child_process');
  const holder = spawn(process.execPath, [...CLI_NODE_FLAGS, join(projectRoot, 'dist', 'test', 'helpers', 'hold-data-lock.js'), join(dir, '.data'), '30000'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise<void>((resolve) => holder.stdout.on('data', (b) => String(b).startsWith('held') && resolve()));
    const noop = await runCli(['run', '--json', ...QUICK], dir);
    t.is(noop.code, 0, noop.stderr);
    const stages = (JSON.parse(noop.stdout.trim().split('\n').at(-1)!) as { stages: { action: string }[] }).stages;
    t.true(stages.length > 0 && stages.every((s) => s.action === 'reused'), noop.stdout);
    t.regex(noop.stderr, /already archived as/);
    t.is(readFileSync(join(dir, 'pipeline.lock'), 'utf8'), before);
    const dry = await runCli(['run', '--dry-run', '--force', 'analyze', ...QUICK], dir);
    t.is(dry.code, 0, dry.stderr);
    t.regex(dry.stdout, /analyze\twould-run/);
    const forced = await runCli(['run', '--force', 'analyze', ...QUICK], dir);
    t.is(forced.code, 2);
    t.regex(forced.stderr, new RegExp(`another pipeline run \\(pid ${holder.pid}\\) is using this data folder`));
  } finally {
    holder.kill();
  }
});

test('a lock left by a process that is gone is taken over', async (t) => {
  const dir = smokeProject();
  const { mkdirSync } = await import('node:fs');
  mkdirSync(join(dir, '.data'), { recursive: true });
  writeFileSync(join(dir, '.data', 'run.lock'), '999999999\n');
  const r = await runCli(['run', ...QUICK], dir); // a run that writes: --dry-run and a no-op rerun take no lock
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /done: [1-9]\d* ran/);
});

test('--force reruns a frozen stage under the same key, keeps its new outputs, and audit still passes', async (t) => {
  const dir = await frozenProject();
  const before = readFileSync(join(outputsOf(dir, 'sample'), 'session.json'), 'utf8');
  const { statSync } = await import('node:fs');
  const mtimeBefore = statSync(join(outputsOf(dir, 'sample'), 'samples.duckdb')).mtimeMs;
  const r = await runCli(['run', ...QUICK, '--force', 'sample'], dir);
  t.is(r.code, 0, r.stderr);
  t.is(readdirSync(join(dir, '.data', 'stages', 'sample')).length, 1, 'same key');
  t.true(statSync(join(outputsOf(dir, 'sample'), 'samples.duckdb')).mtimeMs > mtimeBefore, 'the new samples replaced the old');
  t.is(readFileSync(join(outputsOf(dir, 'sample'), 'session.json'), 'utf8'), before);
  const audit = await runCli(['audit', ...QUICK], dir);
  t.is(audit.code, 0, audit.stdout + audit.stderr);
});
