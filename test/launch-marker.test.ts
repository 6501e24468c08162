import test from 'ava';
import { Launcher, type LaunchRequest } from '../harness/launch/launcher.js';
import { makeMarker } from '../harness/launch/marker.js';

let launcher: Launcher;

test.before(async () => {
  launcher = await Launcher.start();
});
test.after.always(async () => {
  await launcher?.close();
});

function request(launchId: string, script: string): LaunchRequest {
  return {
    launchId,
    argv: ['sh', '-c', script],
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    cwd: process.cwd(),
    marker: makeMarker(launchId),
    timeoutMs: 5000,
    tailBytes: 4096,
  };
}

test.serial('a marker printed by a different launch never counts', async (t) => {
  const stale = makeMarker('marker-1');
  const r = await launcher.launch(request('marker-2', `echo ${stale}; echo ${makeMarker('marker-22')}; sleep 0.05`));
  t.is(r.state, 'failed');
  t.false(r.markerSeen);
  t.is(r.readyMs, null);
  t.regex(r.failureReason ?? '', /never appeared/);
});

test.serial('the marker counts only as a whole line, not inside a longer line', async (t) => {
  const marker = makeMarker('marker-3');
  const r = await launcher.launch(request('marker-3', `echo "x ${marker}"; echo "${marker} y"; printf '%s' ${marker} >&2`));
  t.false(r.markerSeen);
});

test.serial('Ready is the moment the marker line is complete, not when its first bytes arrive', async (t) => {
  const marker = makeMarker('marker-4');
  const r = await launcher.launch(request('marker-4', `printf '%s' ${marker}; sleep 0.2; echo`));
  t.is(r.state, 'ok');
  t.true(r.readyMs! >= 200, `Ready ${r.readyMs} ms`);
});

test.serial('a marker line ending in CRLF counts', async (t) => {
  const marker = makeMarker('marker-5');
  const r = await launcher.launch(request('marker-5', `printf '%s\\r\\n' ${marker}`));
  t.is(r.state, 'ok');
  t.true(r.markerSeen);
});

test.serial('a last marker line without a newline counts when stdout closes', async (t) => {
  const marker = makeMarker('marker-6');
  const r = await launcher.launch(request('marker-6', `printf '%s' ${marker}`));
  t.is(r.state, 'ok');
  t.true(r.readyMs! <= r.completionMs!);
});

test.serial('the marker is found when it arrives split across many small writes', async (t) => {
  const marker = makeMarker('marker-7');
  const pieces = marker
    .match(/.{1,3}/g)!
    .map((p) => `printf '%s' '${p}'; sleep 0.01;`)
    .join(' ');
  const r = await launcher.launch(request('marker-7', `echo noise; ${pieces} echo; echo more`));
  t.is(r.state, 'ok');
  t.true(r.markerSeen);
});

test('makeMarker refuses a launch id that could break the marker line', (t) => {
  t.throws(() => makeMarker('a b'));
  t.throws(() => makeMarker('a\nb'));
  t.is(makeMarker('c1-r2.cold'), 'BENCHGRAPH-READY-c1-r2.cold');
});
