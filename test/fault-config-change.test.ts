// Fault: the pipeline file is edited while a run is in progress.
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, smokeProject, startCli } from './helpers/cli.js';

const FAST = ['--set', 'design.rounds=3', '--set', 'analysis.bootstrap.resamples=200'];

test('a pipeline file edited during a run: the run finishes on the config it read, and the lock file records that config', async (t) => {
  const dir = smokeProject();
  const file = join(dir, 'pipeline.yaml');
  // A slowed path (300 ms before each paused launch) keeps sampling going for seconds.
  const original = readFileSync(file, 'utf8').replace("'sleep 0.05; exec", "'sleep 0.3; exec");
  writeFileSync(file, original);
  const edited = original.replace('seed: smoke-1', 'seed: smoke-2').replace('timeout_s: 10', 'timeout_s: 11');
  t.not(edited, original);

  const child = startCli(['run', ...FAST], dir);
  let err = '';
  let editedDuring = false;
  child.stderr!.on('data', (b) => {
    err += b;
    if (!editedDuring && /sample: session 1\/1 echo formal round 1\//.test(err)) {
      writeFileSync(file, edited);
      editedDuring = true;
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  t.true(editedDuring, 'the file was edited while sampling');
  t.is(code, 0, err);

  // The edited file is not what ran: every stage it changes is stale ...
  const stale = await runCli(['status', '--json', ...FAST], dir);
  const states = (r: typeof stale): Record<string, string> =>
    Object.fromEntries((JSON.parse(r.stdout) as { stages: { id: string; state: string }[] }).stages.map((s) => [s.id, s.state]));
  t.is(states(stale)['sample'], 'stale', stale.stdout);
  // ... and the file as it was read is exactly what the lock file records.
  writeFileSync(file, original);
  const fresh = await runCli(['run', '--dry-run', '--json', ...FAST], dir);
  t.is(fresh.code, 0, fresh.stderr);
  const actions = (JSON.parse(fresh.stdout.trim().split('\n').at(-1)!) as { stages: { id: string; key: string; action: string }[] }).stages;
  t.deepEqual(
    actions.filter((s) => s.action !== 'would-reuse').map((s) => s.id),
    [],
  );
  const lock = JSON.parse(readFileSync(join(dir, 'pipeline.lock'), 'utf8')) as { stages: Record<string, { key: string }> };
  for (const s of actions) t.is(lock.stages[s.id]?.key, s.key, s.id);
});
