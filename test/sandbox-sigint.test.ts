// Real gVisor (root only; CI runs it as root): SIGINT while an effect row
// restores sandboxes from a blkio-throttled loop disk leaves nothing: no
// sandbox or runsc process, no mount, no loop device, no cgroup, no folder.
import test from 'ava';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, startCli, tempDir } from './helpers/cli.js';
import { sandboxLeftovers } from './helpers/sandbox-leftovers.js';

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test : test.skip;
if (!isRoot) console.warn('sandbox-sigint: skipped, needs root and runsc; CI runs it as root');

rootTest('SIGINT during a gVisor effect row leaves no sandbox, process, mount, loop device, cgroup or row folder', async (t) => {
  t.timeout(180_000);
  const dir = tempDir('bg-fx-sigint-');
  cpSync(join(projectRoot, 'pipelines', 'sandbox-effects-mini.fragment.yaml'), join(dir, 'pipeline.yaml'));
  const child = startCli(['run', '--set', 'design.rounds=200'], dir);
  let stderr = '';
  // the row's setup is done (sandbox checkpointed, loop disk, cgroup and tmpfs made)
  const rowDir = await new Promise<string | null>((resolve) => {
    child.stderr!.on('data', (b: Buffer) => {
      stderr += b.toString();
      const m = /work folder (\S+)/.exec(stderr);
      if (m && /setup done/.test(stderr)) resolve(m[1]!);
    });
    child.on('close', () => resolve(null));
  });
  // then rounds run: a throttled restore takes over a second, so the signal comes mid-row
  await new Promise((r) => setTimeout(r, 2500));
  t.truthy(rowDir, stderr.slice(-2000));
  t.true(sandboxLeftovers(rowDir!).length > 0, 'the row had made something to undo when the signal came');
  child.kill('SIGINT');
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  t.is(code, 130, stderr.slice(-2000));
  t.deepEqual(sandboxLeftovers(rowDir!), []);
  rmSync(dir, { recursive: true, force: true });
});
