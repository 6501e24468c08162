import test from 'ava';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Launcher, type LaunchRequest } from '../harness/launch/launcher.js';
import { makeMarker } from '../harness/launch/marker.js';
import { alive } from './helpers/processes.js';

let launcher: Launcher;
let dir: string;
let n = 0;

test.before(async () => {
  launcher = await Launcher.start();
  dir = await mkdtemp(join(tmpdir(), 'benchgraph-launch-'));
});
test.after.always(async () => {
  await launcher?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function request(script: string, overrides: Partial<LaunchRequest> = {}): LaunchRequest {
  const launchId = `fail-${++n}`;
  const marker = makeMarker(launchId);
  return {
    launchId,
    argv: ['sh', '-c', script.replaceAll('{marker}', marker)],
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    cwd: dir,
    marker,
    timeoutMs: 5000,
    tailBytes: 4096,
    ...overrides,
  };
}

/** Running and not a zombie. */

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && alive(pid); i++) await sleep(10);
  return !alive(pid);
}

test.serial('a timeout kills the whole process group, a grandchild too, and is recorded as state timeout', async (t) => {
  const r = await launcher.launch(request('sleep 30 & echo $! > grandchild.pid; echo {marker}; wait', { timeoutMs: 300 }));
  t.is(r.state, 'timeout');
  t.is(r.completionMs, null);
  t.is(r.signal, 'SIGKILL');
  t.true(r.markerSeen);
  t.regex(r.failureReason ?? '', /timed out after 300 ms/);
  const grandchild = Number((await readFile(join(dir, 'grandchild.pid'), 'utf8')).trim());
  t.true(await gone(grandchild), `grandchild ${grandchild} still running`);
});

test.serial('a process left running in the group after the launch completed is killed', async (t) => {
  const r = await launcher.launch(request('sleep 30 >/dev/null 2>&1 & echo $! > stray.pid; echo {marker}'));
  t.is(r.state, 'ok');
  t.true(launcher.lastStrayKilled);
  const stray = Number((await readFile(join(dir, 'stray.pid'), 'utf8')).trim());
  t.true(await gone(stray), `stray ${stray} still running`);
});

test.serial('a command killed by a signal is a failure naming the signal', async (t) => {
  const r = await launcher.launch(request('echo {marker}; kill -TERM $$'));
  t.is(r.state, 'failed');
  t.is(r.signal, 'SIGTERM');
  t.is(r.exitCode, null);
  t.regex(r.failureReason ?? '', /SIGTERM/);
});

test.serial('a program that does not exist is a failure with a reason, not an exception', async (t) => {
  const r = await launcher.launch(request('', { argv: ['benchgraph-no-such-program'] }));
  t.is(r.state, 'failed');
  t.regex(r.failureReason ?? '', /not found/);
  t.is(r.readyMs, null);
});

test.serial('a working folder that does not exist is a failure with a reason', async (t) => {
  const r = await launcher.launch(request('echo {marker}', { cwd: join(dir, 'missing') }));
  t.is(r.state, 'failed');
  t.regex(r.failureReason ?? '', /working directory/);
});

test.serial('stdout and stderr tails keep only the last tailBytes bytes', async (t) => {
  const r = await launcher.launch(request('seq 1 10000; echo {marker}; seq 1 5000 >&2; echo last-err >&2', { tailBytes: 64 }));
  t.is(r.state, 'ok');
  t.is(Buffer.byteLength(r.stdoutTail), 64);
  t.true(r.stdoutTail.endsWith(`${makeMarker(`fail-${n}`)}\n`));
  t.true(r.stderrTail.endsWith('last-err\n'));
  t.is(Buffer.byteLength(r.stderrTail), 64);
});

test.serial('CPU time and max RSS of the child are recorded', async (t) => {
  const r = await launcher.launch(request('i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; echo {marker}'));
  t.is(r.state, 'ok');
  t.true(r.userCpuMs! + r.sysCpuMs! > 0);
  t.true(r.maxRssKb! > 0);
});

test.serial('the launched process gets exactly the environment of the request', async (t) => {
  const r = await launcher.launch(
    request('echo "v=$BENCHGRAPH_TEST_VAR h=${HOME:-unset}"; echo {marker}', {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', BENCHGRAPH_TEST_VAR: 'a b' },
    }),
  );
  t.regex(r.stdoutTail, /^v=a b h=unset$/m);
});
