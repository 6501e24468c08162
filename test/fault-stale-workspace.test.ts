// Real parts (root only; CI runs it as root): a launch's workspace is fresh
// even when an interrupted earlier run left it behind. The warmup's preflight
// launch ids repeat from run to run, so a workspace the lazy and oci-full
// launchers had filled (upper/, work/, rootfs/) would make their `mkdir` fail.
import test from 'ava';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { writePipelineVariant } from './helpers/pipeline-variant.js';

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test : test.skip;

rootTest('a preflight launch whose workspace an interrupted run left behind starts in a fresh one', async (t) => {
  t.timeout(300_000);
  const dir = tempDir('bg-stale-ws-');
  try {
    writePipelineVariant(dir, 'real-mini.fragment.yaml');
    const sets = ['--set', 'design.rounds=1', '--set', 'design.warmup_rounds=0', '--set', 'design.disk_probe_mb=0'];
    const first = await runCli(['run', ...sets], dir);
    t.is(first.code, 0, first.stderr.slice(-1500));
    // What a run killed mid-launch leaves in the warmup's work folder (kept until the stage succeeds): each
    // preflight launch's workspace, filled as oci-run.sh fills it.
    const plan = await runCli(['run', ...sets, '--force', 'sample', '--dry-run', '--json'], dir);
    const stages = (JSON.parse(plan.stdout.trim().split('\n').pop()!) as { stages: { id: string; key: string }[] }).stages;
    const key = stages.find((s) => s.id === 'warmup')!.key;
    const session = join(dir, '.data', 'work', 'warmup', key, 'session-1-a0');
    let planted = 0;
    for (const id of ['shell.lazy.cold.p1.S1.a0', 'shell.lazy.warm.p1.S1.a0', 'shell.oci-full.cold.p1.S1.a0', 'shell.oci-full.warm.p1.S1.a0']) {
      for (const sub of ['upper', 'work', 'rootfs', 'crun-state']) mkdirSync(join(session, 'ws', id, sub), { recursive: true });
      planted++;
    }
    t.is(planted, 4);
    const again = await runCli(['run', ...sets, '--force', 'sample'], dir);
    t.is(again.code, 0, again.stderr.slice(-1500));
    t.notRegex(again.stderr, /preflight failed/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
