// `pipeline history` over the published class's runs and the shared same-key
// replicate on another host class (PTI on; ../shared/replicates/): the step
// is one shift of every cell, a host class change with its canary, and the
// cells that moved with it are counted there, never reported as cell changes.
import test from 'ava';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../harness/process/project-root.js';
import { runCli } from './helpers/cli.js';

const shared = join(projectRoot(), '..', 'shared', 'replicates', 'lazy-startup-2026-12-06-1b539537c7f0');
const runs = ['2026-12-04-660cd5314ef6', '2026-12-04-710788c2d305', '2026-12-04-ea8cfc82341e', '2026-12-05-f6b8e493f9fe'].map(
  (r) => `reports/lazy-startup/runs/${r}`,
);

test('a run on another host class is one shift of every cell, a host class change, and no cell change', async (t) => {
  if (!existsSync(shared)) return t.pass('no shared/ beside this checkout');
  const r = await runCli(['history', '--json', ...runs, shared], projectRoot());
  t.is(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { shifts: { run: number; cause: string }[]; changes: unknown[] };
  t.is(j.shifts.length, 1);
  t.is(j.shifts[0]!.run, 5);
  t.regex(j.shifts[0]!.cause, /^host class change; \d+ cells moved beyond the shared factor with it/);
  t.deepEqual(j.changes, []);
});
