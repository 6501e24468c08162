// Phase marks: `BENCHGRAPH-PHASE NAME` lines on stderr are timed by the C
// helper when read, like the marker; other stderr lines, and marks split
// across writes, are handled; a mark never changes Ready.
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

let n = 0;
function request(script: string): LaunchRequest {
  const launchId = `phases-${++n}`;
  const marker = makeMarker(launchId);
  return {
    launchId,
    argv: ['sh', '-c', script.replaceAll('{marker}', marker)],
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    cwd: process.cwd(),
    marker,
    timeoutMs: 10_000,
    tailBytes: 1024,
  };
}

test('marks printed on stderr come back in order, each timed from spawn, before Ready', async (t) => {
  const r = await launcher.launch(
    request(
      'sleep 0.1; echo "BENCHGRAPH-PHASE pull-done" >&2; echo noise >&2; sleep 0.1; printf "BENCHGRAPH-PHA" >&2; printf "SE run-done\\n" >&2; sleep 0.05; echo {marker}',
    ),
  );
  t.is(r.state, 'ok', r.failureReason ?? '');
  t.deepEqual(
    r.phases.map((p) => p.name),
    ['pull-done', 'run-done'],
  );
  const [pull, run] = r.phases.map((p) => p.ms);
  t.true(pull! >= 100 && pull! < 180, `pull-done at ${pull} ms`);
  t.true(run! - pull! >= 100 && run! - pull! < 180, `run-done ${run! - pull!} ms after pull-done`);
  t.true(r.readyMs! > run!, `Ready ${r.readyMs} ms after the last mark ${run} ms`);
});

test('a stderr line that only starts like a mark, or a mark on stdout, is not a mark', async (t) => {
  const r = await launcher.launch(request('echo "BENCHGRAPH-PHASEX a" >&2; echo "xBENCHGRAPH-PHASE b" >&2; echo "BENCHGRAPH-PHASE c"; echo {marker}'));
  t.is(r.state, 'ok', r.failureReason ?? '');
  t.deepEqual(r.phases, []);
});
