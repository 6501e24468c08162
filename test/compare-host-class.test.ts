// `pipeline compare` of the published default run against the shared
// same-key replicate made on another host class (PTI on;
// ../shared/replicates/): it says "another host class" first, naming the
// canary pieces, judges the conclusions' sizes on their ratios a / b
// (transfer), and never counts the class's factor as magnitude failures
// against the same-class rerun interval.
import test from 'ava';
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../harness/process/project-root.js';
import { runCli, tempDir } from './helpers/cli.js';

// The replicate is a same-key rerun of the run published on 2026-12-05; the
// report folder has since been republished (2026-12-07, another class), so the
// test names that run's archive and not the folder.
const published = join('reports', 'lazy-startup', 'runs', '2026-12-05-f6b8e493f9fe');
const shared = join(projectRoot(), '..', 'shared', 'replicates', 'lazy-startup-2026-12-06-1b539537c7f0');

test('compare against a run on another host class says so first, and judges transfer on the ratios: 18 of the 28 Ready ratios within ×0.80–×1.25', async (t) => {
  if (!existsSync(shared)) return t.pass('no shared/ beside this checkout');
  const candidate = join(tempDir(), 'replicate');
  cpSync(shared, candidate, { recursive: true });
  const r = await runCli(['compare', published, candidate], projectRoot());
  t.is(r.code, 1, r.stderr); // 8 conclusions lost in direction: the exit code follows the direction only
  t.regex(
    r.stdout.split('\n')[0]!,
    /^another host class: canary mem ×5\.49, exec ×5\.26(, \w+ ×[\d.]+)* beyond their run-to-run spread; the same-class rerun interval does not apply/,
  );
  const ready = r.stdout.split('\n').filter((l) => /^(shell|numpy) (cold|warm) ready: /.test(l));
  t.is(ready.length, 28);
  t.is(ready.filter((l) => / transferred: P50 ratio /.test(l)).length, 18);
  t.is(ready.filter((l) => / moved: P50 ratio /.test(l)).length, 10);
  t.notRegex(r.stdout, /rerun interval \[/, 'no conclusion judged against the same-class rerun interval');
  const json = await runCli(['compare', '--json', published, candidate], projectRoot());
  const j = JSON.parse(json.stdout) as { hostClass: { same: boolean }; conclusions: { magnitudeRule: string }[] };
  t.false(j.hostClass.same);
  t.true(j.conclusions.every((c) => c.magnitudeRule === 'cross-class ratio'));
});

test('compare of two runs of the published host class says nothing of classes and judges sizes as before', async (t) => {
  const r = await runCli(['compare', 'reports/lazy-startup/runs/2026-12-04-710788c2d305', 'reports/lazy-startup/runs/2026-12-05-f6b8e493f9fe'], projectRoot());
  t.notRegex(r.stdout, /another host class/);
  t.regex(r.stdout, /the same host class/);
});
