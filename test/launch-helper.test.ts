import test from 'ava';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { UserError } from '../harness/errors.js';
import { Launcher } from '../harness/launch/launcher.js';
import { pendingCleanups } from '../harness/process/cleanup.js';
import { alive } from './helpers/processes.js';
import { CLI_NODE_FLAGS } from '../harness/process/cli-argv.js';

async function waitFor(cond: () => boolean): Promise<boolean> {
  for (let i = 0; i < 200 && !cond(); i++) await sleep(10);
  return cond();
}

test('a missing helper binary is a user error telling to run npm run build', async (t) => {
  const e = await t.throwsAsync(Launcher.start({ helperPath: '/nonexistent/benchgraph/launcher' }));
  t.true(e instanceof UserError);
  t.regex((e as UserError).format(), /npm run build/);
  t.regex((e as UserError).format(), /gcc/);
});

test.serial('closing the launcher during a launch kills the launched process group and the helper', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-helper-'));
  try {
    const launcher = await Launcher.start();
    t.true(pendingCleanups().some((l) => l.startsWith('launch helper')));
    const pending = launcher.launch({
      launchId: 'close-1',
      argv: ['sh', '-c', 'sleep 30 & echo $! > gc.pid; sleep 30'],
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      cwd: dir,
      marker: 'never',
      timeoutMs: 60_000,
      tailBytes: 0,
    });
    pending.catch(() => {});
    t.true(
      await waitFor(() => {
        try {
          return readFileSync(join(dir, 'gc.pid'), 'utf8').endsWith('\n');
        } catch {
          return false;
        }
      }),
    );
    const grandchild = Number((await readFile(join(dir, 'gc.pid'), 'utf8')).trim());
    t.true(alive(grandchild));
    await launcher.close();
    await t.throwsAsync(pending, { message: /exited/ });
    t.true(await waitFor(() => !alive(grandchild)), `grandchild ${grandchild} survived close`);
    t.false(pendingCleanups().some((l) => l.startsWith('launch helper')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.serial('launches sent together run one at a time, in order', async (t) => {
  const launcher = await Launcher.start();
  try {
    const ids = ['q1', 'q2', 'q3'];
    const results = await Promise.all(
      ids.map((id) =>
        launcher.launch({
          launchId: id,
          argv: ['sh', '-c', `echo ${id}`],
          env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
          cwd: process.cwd(),
          marker: id,
          timeoutMs: 5000,
          tailBytes: 100,
        }),
      ),
    );
    t.deepEqual(
      results.map((r) => [r.launchId, r.state]),
      ids.map((id) => [id, 'ok']),
    );
    t.true(launcher.lastIdleMs !== null && launcher.lastIdleMs >= 0);
  } finally {
    await launcher.close();
  }
});

test('a request with a marker spanning lines is refused before reaching the helper', async (t) => {
  const launcher = await Launcher.start();
  try {
    await t.throwsAsync(launcher.launch({ launchId: 'bad', argv: ['true'], env: {}, cwd: '/', marker: 'a\nb', timeoutMs: 1000, tailBytes: 0 }), {
      message: /marker/,
    });
  } finally {
    await launcher.close();
  }
});

test.serial('a SIGINT to the run leaves neither the helper nor the launched process group running', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-sigint-'));
  try {
    const launcherModule = new URL('../harness/launch/launcher.js', import.meta.url).href;
    const script = join(dir, 'run.mjs');
    await writeFile(
      script,
      `import { Launcher } from ${JSON.stringify(launcherModule)};
const l = await Launcher.start();
console.log('helper ' + l.helperPid);
l.launch({ launchId: 'sigint-1', argv: ['sh', '-c', 'sleep 30 & echo $! > gc.pid; sleep 30'],
  env: { PATH: process.env.PATH }, cwd: ${JSON.stringify(dir)}, marker: 'never', timeoutMs: 60000, tailBytes: 0 }).catch(() => {});
setInterval(() => {}, 1000);
`,
    );
    const run = spawn(process.execPath, [...CLI_NODE_FLAGS, script], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    run.stdout.on('data', (d: Buffer) => (out += d.toString()));
    t.true(
      await waitFor(() => {
        try {
          return readFileSync(join(dir, 'gc.pid'), 'utf8').endsWith('\n');
        } catch {
          return false;
        }
      }),
    );
    const helper = Number(/helper (\d+)/.exec(out)![1]);
    const grandchild = Number(readFileSync(join(dir, 'gc.pid'), 'utf8').trim());
    t.true(alive(helper) && alive(grandchild));
    const exited = new Promise<number | null>((resolve) => run.once('exit', (code) => resolve(code)));
    run.kill('SIGINT');
    t.is(await exited, 130);
    t.true(await waitFor(() => !alive(helper)), `helper ${helper} survived SIGINT`);
    t.true(await waitFor(() => !alive(grandchild)), `grandchild ${grandchild} survived SIGINT`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
