// The helper's Ready modes: 'none' (Completion only) and 'first-line', for
// ordinary commands that print no marker.
import test from 'ava';
import { Launcher, type LaunchRequest } from '../harness/launch/launcher.js';

let launcher: Launcher;

test.before(async () => {
  launcher = await Launcher.start();
});
test.after.always(async () => {
  await launcher?.close();
});

function request(launchId: string, script: string, ready: LaunchRequest['ready']): LaunchRequest {
  return {
    launchId,
    argv: ['sh', '-c', script],
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    cwd: process.cwd(),
    marker: 'MARKER',
    ready,
    timeoutMs: 5000,
    tailBytes: 4096,
  };
}

test.serial("with ready 'none', a command that prints no marker is ok with Completion and no Ready", async (t) => {
  const r = await launcher.launch(request('none-1', 'echo hi', 'none'));
  t.is(r.state, 'ok', r.failureReason ?? '');
  t.is(r.readyMs, null);
  t.true(r.completionMs! > 0);
});

test.serial("with ready 'none', an empty line on stdout is not taken for a marker", async (t) => {
  const r = await launcher.launch(request('none-2', 'echo; echo', 'none'));
  t.false(r.markerSeen);
});

test.serial("with ready 'first-line', Ready is the first complete stdout line, before a later sleep", async (t) => {
  // Ready is read when the helper wakes, which a busy host can delay: the later sleep is long (1 s), so Ready at the
  // line and Ready at EOF stay apart by far more than any wake-up delay
  const r = await launcher.launch(request('first-1', 'printf "a"; sleep 0.05; echo b; sleep 1', 'first-line'));
  t.is(r.state, 'ok', r.failureReason ?? '');
  t.true(r.readyMs! >= 50, `ready ${r.readyMs}`);
  t.true(r.completionMs! >= 1050, `completion ${r.completionMs}`);
  t.true(r.completionMs! - r.readyMs! >= 500, `ready ${r.readyMs}, completion ${r.completionMs}`);
});

test.serial("with ready 'first-line', a command that prints nothing fails with a reason", async (t) => {
  const r = await launcher.launch(request('first-2', 'true', 'first-line'));
  t.is(r.state, 'failed');
  t.regex(r.failureReason!, /no line appeared on stdout/);
});
