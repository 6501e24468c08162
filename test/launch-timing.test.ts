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

// The baseline runs the same programs (`sh`, then `sleep`, then the marker)
// with a zero sleep, so the difference is the 200 ms alone: an `echo` baseline
// left out the exec of `sleep`, which cost 5.3 ms on a busy CI host. The
// median of nine paired differences keeps one preempted launch out.
test.serial('Ready of a command that sleeps 200 ms before its marker is within 5 ms of 200 ms more than the same command sleeping 0 s', async (t) => {
  const differences: number[] = [];
  for (let i = 0; i < 9; i++) {
    const zero = await readyMs('sleep 0; echo {marker}');
    const sleeper = await readyMs('sleep 0.2; echo {marker}');
    differences.push(sleeper - zero);
  }
  const got = median(differences);
  t.log(`median paired difference ${got.toFixed(3)} ms over ${differences.length} pairs (${differences.map((d) => d.toFixed(1)).join(', ')})`);
  t.true(Math.abs(got - 200) <= 5, `the median paired difference ${got} ms is not within 5 ms of 200 ms`);
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
