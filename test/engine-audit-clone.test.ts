// `pipeline audit` where no data folder holds the lock's frozen outputs, as
// in a fresh clone (issue 44 item 6): it checks what a clone has, the
// published copy against the lock's output digest and the run archive
// against each run.json, says which stages it could not check, creates
// nothing (no data image), and exits 0; an edited published file fails it.
import test from 'ava';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../harness/process/project-root.js';
import { runCli } from './helpers/cli.js';

function clone(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bg-audit-clone-'));
  for (const f of ['pipeline.yaml', 'pipeline.lock', join('reports', 'lazy-startup')]) cpSync(join(projectRoot(), f), join(dir, f), { recursive: true });
  return dir;
}

test('audit without a data folder checks the published report and its archive against the lock, creates nothing and exits 0', async (t) => {
  const dir = clone();
  try {
    const before = readdirSync(dir).sort();
    const r = await runCli(['audit'], dir);
    t.is(r.code, 0, r.stdout + r.stderr);
    t.regex(r.stdout, /no data folder holds this lock's frozen outputs here/);
    t.regex(r.stdout, /report: the published copy reports\/lazy-startup against the lock's output digest, and its run archive/);
    t.regex(r.stdout, /sample: nothing: its frozen outputs are in the data folder of the machine that ran it/);
    t.regex(r.stdout, /^\d+ files checked, 0 problems$/m);
    t.deepEqual(readdirSync(dir).sort(), before, 'no data folder and no data image made');
    t.false(existsSync(join(dir, '.data.ext4')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('audit without a data folder fails naming the published report when one of its files was edited', async (t) => {
  const dir = clone();
  try {
    appendFileSync(join(dir, 'reports', 'lazy-startup', 'report.md'), '\nedited\n');
    const r = await runCli(['audit'], dir);
    t.is(r.code, 1, r.stdout + r.stderr);
    t.regex(r.stdout, /^CHANGED {2}reports\/lazy-startup {2}\(stage report\)$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
