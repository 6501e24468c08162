// The undo stack's own logic (no real effects): an undo runs once, and the
// signal path's runCleanup waits for an undo its owner started, so the process
// never exits in the middle of a daemon's stop (a private dockerd's data root
// was left mounted that way by a SIGINT that fell while services were
// stopping).
import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { onCleanup, pendingCleanups, runCleanup } from '../harness/process/cleanup.js';

test.serial('runCleanup waits for an undo that its owner started and that is still running', async (t) => {
  const events: string[] = [];
  const undo = onCleanup('slow daemon', async () => {
    events.push('undo started');
    await sleep(200);
    events.push('undo finished');
  });
  const owner = undo();
  t.deepEqual(pendingCleanups(), [], 'the owner took its undo off the stack');
  const failures = await runCleanup();
  events.push('cleanup returned');
  await owner;
  t.deepEqual(failures, []);
  t.deepEqual(events, ['undo started', 'undo finished', 'cleanup returned']);
});

test.serial('an owner calling its undo while runCleanup runs it shares that one run and returns when it has finished', async (t) => {
  let runs = 0;
  let finished = false;
  const undo = onCleanup('daemon', async () => {
    runs++;
    await sleep(150);
    finished = true;
  });
  const cleanup = runCleanup();
  await sleep(20);
  await undo();
  t.true(finished, 'the owner returned only after the undo finished');
  await cleanup;
  await undo();
  t.is(runs, 1);
});

test.serial('undos run newest first and a failing one is reported while the rest still run', async (t) => {
  const order: string[] = [];
  onCleanup('first', () => void order.push('first'));
  onCleanup('broken', () => {
    throw new Error('umount: target is busy');
  });
  onCleanup('last', () => void order.push('last'));
  const failures = await runCleanup();
  t.deepEqual(order, ['last', 'first']);
  t.deepEqual(failures, ['cleanup of broken failed: umount: target is busy']);
});
