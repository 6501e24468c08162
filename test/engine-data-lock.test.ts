import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { QUICK, executions, projectRoot, runCli, smokeProject, tempDir, type CliResult } from './helpers/cli.js';
import { CLI_NODE_FLAGS } from '../harness/process/cli-argv.js';

const holderScript = join(projectRoot, 'dist', 'test', 'helpers', 'hold-data-lock.js');

interface HolderResult {
  pid: number;
  code: number | null;
  stdout: string;
}

function startHolder(dataDir: string, holdMs: number): Promise<HolderResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI_NODE_FLAGS, holderScript, dataDir, String(holdMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.on('close', (code) => resolve({ pid: child.pid!, code, stdout }));
  });
}

/** Starts n holders at once; the one that holds keeps the lock until every one has answered. */
async function contend(dataDir: string, n: number): Promise<HolderResult[]> {
  const children = Array.from({ length: n }, () =>
    spawn(process.execPath, [...CLI_NODE_FLAGS, holderScript, dataDir, 'stdin'], { stdio: ['pipe', 'pipe', 'inherit'] }),
  );
  let answered = 0;
  return Promise.all(
    children.map(
      (child) =>
        new Promise<HolderResult>((resolve) => {
          let stdout = '';
          child.stdout.on('data', (b) => {
            stdout += b;
            if (stdout.endsWith('\n') && ++answered === n) for (const c of children) c.stdin.end();
          });
          child.on('close', (code) => resolve({ pid: child.pid!, code, stdout }));
        }),
    ),
  );
}

const DEAD_PID = '999999999\n';

test('of eight processes taking the lock at once, exactly one holds it and the others are refused naming it', async (t) => {
  const data = tempDir();
  const results = await contend(data, 8);
  const held = results.filter((r) => r.stdout.startsWith('held'));
  t.is(held.length, 1, results.map((r) => r.stdout).join(''));
  for (const r of results.filter((x) => x !== held[0])) {
    t.is(r.code, 2);
    t.regex(r.stdout, new RegExp(`another pipeline run \\(pid ${held[0]!.pid}\\)`));
  }
});

test('of eight processes finding a stale lock (a dead pid) at once, exactly one takes it over', async (t) => {
  const data = tempDir();
  writeFileSync(join(data, 'run.lock'), DEAD_PID);
  const results = await contend(data, 8);
  const held = results.filter((r) => r.stdout.startsWith('held'));
  t.is(held.length, 1, results.map((r) => r.stdout).join(''));
  t.is(results.filter((r) => r.code === 2).length, 7);
});

test('a lock holder killed with SIGKILL leaves a lock the next run takes at once', async (t) => {
  const data = tempDir();
  const holding = new Promise<void>((resolve) => {
    const child = spawn(process.execPath, [...CLI_NODE_FLAGS, holderScript, data, '60000'], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (b) => {
      if (String(b).startsWith('held')) {
        child.kill('SIGKILL');
        child.on('close', () => resolve());
      }
    });
  });
  await holding;
  const next = await startHolder(data, 0);
  t.regex(next.stdout, /^held /);
});

async function twoRunsAtOnce(dir: string): Promise<[CliResult, CliResult]> {
  return Promise.all([runCli(['run', ...QUICK], dir), runCli(['run', ...QUICK], dir)]);
}

function checkOneRan(t: import('ava').ExecutionContext, [a, b]: [CliResult, CliResult], dir: string): void {
  const codes = [a.code, b.code].sort();
  t.deepEqual(codes, [0, 2], a.stderr + b.stderr);
  const loser = a.code === 2 ? a : b;
  t.regex(loser.stderr, /another pipeline run \(pid \d+\) is using this data folder/);
  t.is(loser.stderr.trim().split('\n').length, 1, 'one line');
  // Each stage of the smoke pipeline executed once, by the winner only.
  t.is(executions(dir).filter((l) => l.includes('\tsample\t')).length, 1);
}

test('two pipeline runs started at the same moment on one data folder: one runs, the other exits 2 naming the holder', async (t) => {
  const dir = smokeProject();
  checkOneRan(t, await twoRunsAtOnce(dir), dir);
});

test('two pipeline runs finding a stale lock at the same moment: one takes it over and runs, the other exits 2', async (t) => {
  const dir = smokeProject();
  mkdirSync(join(dir, '.data'), { recursive: true });
  writeFileSync(join(dir, '.data', 'run.lock'), DEAD_PID);
  checkOneRan(t, await twoRunsAtOnce(dir), dir);
});
