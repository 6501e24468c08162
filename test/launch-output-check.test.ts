import test from 'ava';
import type { LaunchResult } from '../harness/launch/launcher.js';
import { checkOutput } from '../harness/launch/output-check.js';
import { Launcher } from '../harness/launch/launcher.js';

function result(overrides: Partial<LaunchResult>): LaunchResult {
  return {
    launchId: 'x',
    state: 'ok',
    readyMs: 1,
    completionMs: 2,
    exitCode: 0,
    signal: null,
    userCpuMs: 0,
    sysCpuMs: 0,
    maxRssKb: 1,
    stdoutTail: 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nBENCHGRAPH-READY-x\n',
    stderrTail: '',
    markerSeen: true,
    failureReason: null,
    phases: [],
    ...overrides,
  };
}

test('a launch that exits non-zero fails the output check with a reason', async (t) => {
  const launcher = await Launcher.start();
  try {
    const r = await launcher.launch({
      launchId: 'nz',
      argv: ['sh', '-c', 'echo M; exit 3'],
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      cwd: process.cwd(),
      marker: 'M',
      timeoutMs: 5000,
      tailBytes: 100,
    });
    t.is(r.state, 'ok');
    t.deepEqual(checkOutput(r, { exit_code: 0, stdout_patterns: [] }), { ok: false, reason: 'exit code 3, expected 0' });
  } finally {
    await launcher.close();
  }
});

test('every stdout pattern must match some line of the tail', (t) => {
  t.deepEqual(checkOutput(result({}), { exit_code: 0, stdout_patterns: ['^PRETTY_NAME=.*bookworm', 'READY'] }), { ok: true, reason: null });
  const missing = checkOutput(result({}), { exit_code: 0, stdout_patterns: ['bookworm', 'numpy 1\\.'] });
  t.false(missing.ok);
  t.regex(missing.reason!, /numpy/);
});

test('a launch that is not ok fails the check with its own reason', (t) => {
  const r = checkOutput(result({ state: 'timeout', failureReason: 'timed out after 10 ms' }), { exit_code: 0, stdout_patterns: [] });
  t.deepEqual(r, { ok: false, reason: 'timed out after 10 ms' });
});

test('an invalid pattern fails the check with a reason instead of throwing', (t) => {
  const r = checkOutput(result({}), { exit_code: 0, stdout_patterns: ['('] });
  t.false(r.ok);
  t.regex(r.reason!, /not a valid regular expression/);
});
