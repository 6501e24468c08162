import test from 'ava';
import { Launcher, type LaunchRequest } from '../harness/launch/launcher.js';
import { makeMarker } from '../harness/launch/marker.js';
import { median } from '../harness/stats/quantile.js';

let launcher: Launcher;
let n = 0;

test.before(async () => {
  launcher = await Launcher.start();
});
test.after.always(async () => {
  await launcher?.close();
});

function request(script: string, overrides: Partial<LaunchRequest> = {}): LaunchRequest {
  const launchId = `timing-${++n}`;
  const marker = makeMarker(launchId);
  return {
    launchId,
    argv: ['sh', '-c', script.replaceAll('{marker}', marker)],
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    cwd: process.cwd(),
    marker,
    timeoutMs: 10_000,
    tailBytes: 1024,
    ...overrides,
  };
}

async function readyMs(script: string): Promise<number> {
  const r = await launcher.launch(request(script));
  if (r.state !== 'ok' || r.readyMs === null) throw new Error(`launch failed: ${r.failureReason}`);
  return r.readyMs;
}

test.serial('Ready of a command that sleeps 200 ms before its marker is within 5 ms of 200 ms plus the spawn cost of one that prints at once', async (t) => {
  const spawnCosts: number[] = [];
  const sleepers: number[] = [];
  for (let i = 0; i < 5; i++) {
    spawnCosts.push(await readyMs('echo {marker}'));
    sleepers.push(await readyMs('sleep 0.2; echo {marker}'));
  }
  const expected = 200 + median(spawnCosts);
  const got = median(sleepers);
  t.log(`spawn cost ${median(spawnCosts).toFixed(3)} ms, Ready ${got.toFixed(3)} ms, expected ${expected.toFixed(3)} ms`);
  t.true(Math.abs(got - expected) <= 5, `Ready ${got} ms is not within 5 ms of ${expected} ms`);
});

test.serial('Ready never exceeds Completion', async (t) => {
  const scripts = ['echo {marker}', 'echo {marker}; echo after', 'echo before >&2; echo {marker}', 'sleep 0.05; echo {marker}'];
  for (let i = 0; i < 20; i++) {
    const r = await launcher.launch(request(scripts[i % scripts.length]!));
    t.is(r.state, 'ok');
    t.true(r.readyMs! <= r.completionMs!, `Ready ${r.readyMs} > Completion ${r.completionMs}`);
  }
});

test.serial('a command that prints its marker and keeps stdout open 300 ms more has Completion at least 300 ms after Ready', async (t) => {
  const r = await launcher.launch(request('echo {marker}; sleep 0.3'));
  t.is(r.state, 'ok');
  t.true(r.completionMs! >= r.readyMs! + 300, `Ready ${r.readyMs} ms, Completion ${r.completionMs} ms`);
});

test.serial('Completion waits until a grandchild holding stdout open closes it, after the child itself exited', async (t) => {
  const r = await launcher.launch(request('echo {marker}; (sleep 0.3) & exit 0'));
  t.is(r.state, 'ok');
  t.is(r.exitCode, 0);
  t.true(r.completionMs! >= 300, `Completion ${r.completionMs} ms`);
});

test.serial('Completion waits for stderr to close as well as stdout', async (t) => {
  const r = await launcher.launch(request('echo {marker}; exec >&-; sleep 0.2'));
  t.is(r.state, 'ok');
  t.true(r.completionMs! >= 200, `Completion ${r.completionMs} ms`);
});
