// `pipeline audit` where no data folder holds the lock's frozen outputs, as
// in a fresh clone (issue 44 item 6): it checks what a clone has, the
// published copy against the lock's output digest and the run archive
// against each run.json, says which stages it could not check, creates
// nothing (no data image), and exits 0; an edited published file fails it,
// and a figure that does not follow from samples.csv is named.
import test from 'ava';
import { appendFileSync, cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../harness/process/project-root.js';
import { runCli, tempDir } from './helpers/cli.js';

function clone(): string {
  const dir = tempDir('bg-audit-clone-');
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
    t.regex(
      r.stdout,
      /report: the published copy reports\/lazy-startup against the lock's output digest, its figures against its samples\.csv, and its run archive/,
    );
    t.regex(r.stdout, /sample: nothing: its frozen outputs are in the data folder of the machine that ran it/);
    t.regex(r.stdout, /^reports\/lazy-startup: \d+ figures of \d+ cells and \d+ differences recomputed from samples\.csv, 0 differ/m);
    t.regex(r.stdout, /^\d+ files checked, \d+ figures recomputed, 0 problems$/m);
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

test('audit without a data folder names a published figure that does not follow from samples.csv', async (t) => {
  const dir = clone();
  try {
    const file = join(dir, 'reports', 'lazy-startup', 'statistics.csv');
    const lines = readFileSync(file, 'utf8').split('\n');
    const header = lines[0]!.split(',');
    const p50 = header.indexOf('p50');
    const fields = lines[1]!.split(',');
    fields[p50] = (Number(fields[p50]) + 1).toFixed(3);
    lines[1] = fields.join(',');
    writeFileSync(file, lines.join('\n'));
    const r = await runCli(['audit'], dir);
    t.is(r.code, 1, r.stdout + r.stderr);
    t.regex(r.stdout, /^CHANGED {2}reports\/lazy-startup {2}\(stage report\)$/m);
    t.regex(
      r.stdout,
      new RegExp(
        `^DIFFERS {2}reports/lazy-startup/statistics\\.csv {2}\\(stage report\\): ${fields.slice(0, 3).join(' ')} \\w+, p50: published ${fields[p50]}, recomputed from samples\\.csv`,
        'm',
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('audit of a pipeline whose lock is not committed recomputes its published figures in a clone, and exits 0', async (t) => {
  const dir = tempDir('bg-audit-clone-');
  try {
    for (const f of [join('pipelines', 'commit-diff.yaml'), join('reports', 'commit-diff')]) cpSync(join(projectRoot(), f), join(dir, f), { recursive: true });
    const before = readdirSync(dir).sort();
    const r = await runCli(['audit', '-f', join('pipelines', 'commit-diff.yaml')], dir);
    t.is(r.code, 0, r.stdout + r.stderr);
    t.regex(r.stdout, /no lock file here, so not the published copy's digest; its figures against its samples\.csv, and its run archive/);
    t.regex(r.stdout, /^reports\/commit-diff: \d+ figures of 44 cells and 22 differences recomputed from samples\.csv, 0 differ/m);
    t.deepEqual(readdirSync(dir).sort(), before, 'nothing made');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
