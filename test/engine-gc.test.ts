import test from 'ava';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { QUICK, runCli, smokeProject, startCli, tempDir } from './helpers/cli.js';
import { writePipelineVariant } from './helpers/pipeline-variant.js';

test('gc removes frozen outputs the lock file no longer references and keeps the rest', async (t) => {
  const dir = smokeProject();
  t.is((await runCli(['run', ...QUICK], dir)).code, 0);
  t.is((await runCli(['run', ...QUICK, '--set', 'analysis.bootstrap.resamples=300'], dir)).code, 0);
  const count = (kind: string): number => readdirSync(join(dir, '.data', 'stages', kind)).length;
  t.is(count('analyze'), 2);
  const r = await runCli(['gc'], dir);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /removed 2 unreferenced stage outputs, kept 4/);
  t.is(count('analyze'), 1);
  const again = await runCli(['run', '--json', ...QUICK, '--set', 'analysis.bootstrap.resamples=300'], dir);
  t.regex(again.stdout, /"action":"reused"/);
  t.notRegex(again.stdout, /"action":"ran"/);
});

/** A smoke project with a complete run (its lock), then a run under another key killed with SIGKILL mid-sampling. */
async function projectWithAbandonedKey(): Promise<{ dir: string; abandoned: string }> {
  const dir = smokeProject();
  const first = await runCli(['run', ...QUICK], dir);
  if (first.code !== 0) throw new Error(first.stderr);
  const child = startCli(['run', '--set', 'design.rounds=40'], dir);
  let err = '';
  await new Promise<void>((resolve) => {
    child.stderr!.on('data', (b) => {
      err += b;
      if (/formal round 2\//.test(err)) resolve();
    });
    child.on('close', () => resolve());
  });
  child.kill('SIGKILL');
  await new Promise((r) => child.on('close', r));
  const lock = JSON.parse(readFileSync(join(dir, 'pipeline.lock'), 'utf8')) as { stages: Record<string, { key: string }> };
  const abandoned = readdirSync(join(dir, '.data', 'work', 'sample')).find((k) => k !== lock.stages['sample']!.key);
  if (!abandoned) throw new Error('the killed run left no work folder: ' + err);
  return { dir, abandoned };
}

function listTree(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const r = join(rel, e.name);
      out.push(r);
      if (e.isDirectory()) walk(r);
    }
  };
  walk('');
  return out.sort();
}

test('gc removes the work folder of a key no lock references (a killed run) and its temporary folders', async (t) => {
  const { dir, abandoned } = await projectWithAbandonedKey();
  const r = await runCli(['gc'], dir);
  t.is(r.code, 0, r.stderr);
  t.false(existsSync(join(dir, '.data', 'work', 'sample', abandoned)));
  const tmp = join(dir, '.data', 'tmp');
  t.deepEqual(existsSync(tmp) ? readdirSync(tmp) : [], [], 'the killed run left a temporary folder; gc removed it');
  const again = await runCli(['run', '--json', ...QUICK], dir);
  t.is(again.code, 0, again.stderr);
  t.notRegex(again.stdout, /"action":"ran"/, 'what the lock references is kept');
});

test('gc --dry-run lists each folder that would go with its bytes and removes nothing', async (t) => {
  const { dir, abandoned } = await projectWithAbandonedKey();
  // gc takes (and on exit removes) the data folder lock the killed run left: that file aside, nothing changes.
  const withoutLock = (xs: string[]): string[] => xs.filter((x) => x !== 'run.lock');
  const before = withoutLock(listTree(join(dir, '.data')));
  const r = await runCli(['gc', '--dry-run'], dir);
  t.is(r.code, 0, r.stderr);
  const line = r.stdout.split('\n').find((l) => l.includes(`work/sample/${abandoned}`));
  t.truthy(line, r.stdout);
  const bytes = Number(/ (\d+) bytes$/.exec(line!)![1]);
  t.true(bytes > 0, 'the journal of the killed run has bytes');
  const total = Number(/: (\d+) bytes$/m.exec(r.stdout)![1]);
  t.true(total >= bytes);
  t.deepEqual(withoutLock(listTree(join(dir, '.data'))), before);
});

test('gc removes build-cache entries no kept frozen pin references and keeps the one the locked pin uses', async (t) => {
  const dir = tempDir();
  const yaml = writePipelineVariant(dir, 'real-mini.fragment.yaml');
  const first = await runCli(['run', '--only', 'pin'], dir);
  t.is(first.code, 0, first.stderr);
  const cache = join(dir, '.data', 'artifacts');
  const [old] = readdirSync(cache);
  // Another os-release in the image: another recipe, another cache entry; the lock now references only the new pin.
  writeFileSync(
    join(dir, 'pipeline.yaml'),
    yaml.replace(/( +)kind: busybox-static\n/, '$1kind: busybox-static\n$1os_release: "ID=busybox\\nVERSION_ID=gc-test\\n"\n'),
  );
  const second = await runCli(['run', '--only', 'pin'], dir);
  t.is(second.code, 0, second.stderr);
  t.is(readdirSync(cache).length, 2);
  const r = await runCli(['gc'], dir);
  t.is(r.code, 0, r.stderr);
  const left = readdirSync(cache);
  t.is(left.length, 1);
  t.not(left[0], old);
  t.regex(r.stdout, /removed 1 unreferenced stage outputs, kept 1; removed \d+ other folders \(work, artifacts, tmp, run\); freed [1-9]\d* bytes/);
});
