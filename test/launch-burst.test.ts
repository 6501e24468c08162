// A burst: N launches released together by the launch helper (issue 46), each
// timed from the one release, each in its own process group with its own
// timeout. Real processes; no assertion rests on how fast this machine is.
import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Launcher, MAX_BURST } from '../harness/launch/launcher.js';
import type { LaunchRequest } from '../harness/launch/launch-types.js';
import { alive } from './helpers/processes.js';

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };

async function waitFor(cond: () => boolean): Promise<boolean> {
  for (let i = 0; i < 300 && !cond(); i++) await sleep(10);
  return cond();
}

const req = (launchId: string, cwd: string, script: string, timeoutMs = 60_000): LaunchRequest => ({
  launchId,
  argv: ['sh', '-c', script],
  env,
  cwd,
  marker: 'READY',
  timeoutMs,
  tailBytes: 256,
});

test.serial('the launches of a burst are in flight together: each waits for all the others to have started before it is Ready', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-burst-'));
  const launcher = await Launcher.start();
  try {
    const n = 6;
    // each marks that it started, then waits until all n have: launches run one at a time would never get there
    const script = `touch started.$1; until [ "$(ls started.* | wc -l)" -ge ${n} ]; do sleep 0.01; done; echo READY`;
    const results = await launcher.burst(Array.from({ length: n }, (_, i) => ({ ...req(`b${i}`, dir, script), argv: ['sh', '-c', script, 'sh', String(i)] })));
    t.deepEqual(
      results.map((r) => [r.launchId, r.state, r.burstIndex]),
      Array.from({ length: n }, (_, i) => [`b${i}`, 'ok', i]),
    );
    for (const r of results) {
      t.true(r.spawnOffsetMs !== null && r.spawnOffsetMs >= 0, 'spawned after the release');
      t.true(r.readyMs !== null && r.readyMs >= r.spawnOffsetMs!, 'Ready is timed from the release, after its own spawn');
    }
    const offsets = results.map((r) => r.spawnOffsetMs!);
    t.deepEqual(
      offsets,
      [...offsets].sort((a, b) => a - b),
      'spawned in request order',
    );
    // a single launch still works after a burst
    const one = await launcher.launch(req('after', dir, 'echo READY'));
    t.is(one.state, 'ok');
  } finally {
    await launcher.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test.serial('in a burst one launch timing out or not found fails alone; the others are Ready', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-burst-'));
  const launcher = await Launcher.start();
  try {
    const results = await launcher.burst([
      req('ok-1', dir, 'echo READY'),
      req('slow', dir, 'sleep 60; echo READY', 300),
      { ...req('missing', dir, ''), argv: ['benchgraph-no-such-command-here'] },
      req('ok-2', dir, 'echo READY'),
    ]);
    t.deepEqual(
      results.map((r) => r.state),
      ['ok', 'timeout', 'failed', 'ok'],
    );
    t.regex(results[2]!.failureReason ?? '', /command not found: benchgraph-no-such-command-here/);
    t.is(results[2]!.spawnOffsetMs, null, 'never spawned');
  } finally {
    await launcher.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test.serial('closing the launcher during a burst kills every launch group, grandchildren included', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-burst-'));
  const launcher = await Launcher.start();
  try {
    const pending = launcher.burst(
      [0, 1, 2].map((i) => ({
        ...req(`c${i}`, dir, 'sleep 30 & echo $! > gc.$1; sleep 30'),
        argv: ['sh', '-c', 'sleep 30 & echo $! > gc.$1; sleep 30', 'sh', String(i)],
      })),
    );
    pending.catch(() => {});
    const pidOf = (i: number): number | null => {
      try {
        const text = readFileSync(join(dir, `gc.${i}`), 'utf8');
        return text.endsWith('\n') ? Number(text.trim()) : null;
      } catch {
        return null;
      }
    };
    t.true(await waitFor(() => [0, 1, 2].every((i) => pidOf(i) !== null)));
    const grandchildren = [0, 1, 2].map((i) => pidOf(i)!);
    t.true(grandchildren.every(alive));
    await launcher.close();
    await t.throwsAsync(pending, { message: /exited/ });
    t.true(await waitFor(() => grandchildren.every((p) => !alive(p))), `survivors: ${grandchildren.filter(alive).join(' ')}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a burst of none, of more than the helper takes, or with one launch id twice is refused before anything runs', async (t) => {
  const launcher = await Launcher.start();
  try {
    await t.throwsAsync(launcher.burst([]), { message: /1 to 128 launches, not 0/ });
    const many = Array.from({ length: MAX_BURST + 1 }, (_, i) => req(`m${i}`, tmpdir(), 'echo READY'));
    await t.throwsAsync(launcher.burst(many), { message: /not 129/ });
    await t.throwsAsync(launcher.burst([req('x', tmpdir(), 'true'), req('x', tmpdir(), 'true')]), { message: /distinct launch ids/ });
    t.is((await launcher.launch(req('still', tmpdir(), 'echo READY'))).state, 'ok', 'the helper still serves');
  } finally {
    await launcher.close();
  }
});

test.serial('an open loop releases launch i at i × the interval whether or not the earlier ones are done, and times each from its own release', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-burst-'));
  const launcher = await Launcher.start();
  try {
    const n = 4;
    const intervalMs = 40;
    // launch i waits for launch i + 1 to have started (the last waits for none): launches released only once the one
    // before is done would never get past the first, and launch i cannot be Ready before launch i + 1's release
    const script = `touch started.$1; if [ "$1" -lt ${n - 1} ]; then until [ -e started.$(($1 + 1)) ]; do sleep 0.005; done; fi; echo READY`;
    const results = await launcher.burst(
      Array.from({ length: n }, (_, i) => ({ ...req(`o${i}`, dir, script), argv: ['sh', '-c', script, 'sh', String(i)] })),
      { intervalMs },
    );
    t.deepEqual(
      results.map((r) => [r.launchId, r.state, r.burstIndex]),
      Array.from({ length: n }, (_, i) => [`o${i}`, 'ok', i]),
    );
    results.forEach((r, i) => {
      t.true(Math.abs(r.releaseOffsetMs - i * intervalMs) < 0.002, `launch ${i} released ${r.releaseOffsetMs} ms after the first`);
      t.true(r.spawnOffsetMs !== null && r.spawnOffsetMs >= 0, 'spawned at or after its own release');
      if (i < n - 1) t.true(r.readyMs !== null && r.readyMs >= intervalMs, `launch ${i} waited for the next release (${r.readyMs} ms from its own)`);
    });
    // closed loop again: every launch from the one release
    const closed = await launcher.burst([req('c0', dir, 'echo READY'), req('c1', dir, 'echo READY')]);
    t.deepEqual(
      closed.map((r) => [r.state, r.releaseOffsetMs]),
      [
        ['ok', 0],
        ['ok', 0],
      ],
    );
  } finally {
    await launcher.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test.serial('an open loop with a bad interval is refused before anything starts', async (t) => {
  const launcher = await Launcher.start();
  try {
    await t.throwsAsync(launcher.burst([req('x', tmpdir(), 'echo READY')], { intervalMs: -1 }), { message: /release interval is 0\.001 to 60000 ms, not -1/ });
    t.is((await launcher.launch(req('y', tmpdir(), 'echo READY'))).state, 'ok', 'the helper still runs');
  } finally {
    await launcher.close();
  }
});
