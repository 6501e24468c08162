// #47 item 8: `compare` said "no canary recorded" for two commit-diff runs that
// both timed their canary: their analyses keep none in run.json. The canary now
// comes from the canary launches of the run's samples.csv, as the analysis
// computes it; a run without canary launches still has none, said as such.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import { folderCanary } from '../harness/compare/run-canary.js';
import { projectRoot, runCli } from './helpers/cli.js';

const runs = join(projectRoot, 'reports', 'commit-diff', 'runs');
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

test("a commit-diff run's canary is its samples.csv's canary launches: each session's median per piece", (t) => {
  const folder = join(runs, '2026-12-07-b37cbf3dd431');
  const canary = folderCanary(folder);
  t.truthy(canary);
  const rows = parseCsvTable(readFileSync(join(folder, 'samples.csv'), 'utf8')).rows.filter((r) => r['phase'] === 'canary' && r['ok'] === 'true');
  t.true(rows.length > 0);
  for (const s of canary!.sessions)
    for (const p of s.pieces) {
      const values = rows.filter((r) => Number(r['session']) === s.session && r['path'] === p.piece).map((r) => Number(r['completion_ms']));
      t.true(Math.abs(p.medianMs! - median(values)) < 1e-9, `session ${s.session} ${p.piece}`);
    }
});

test('compare of two commit-diff runs that timed their canary reads it; a run without canary launches says so', async (t) => {
  const both = await runCli(['compare', join(runs, '2026-12-05-67adda5b3b8b'), join(runs, '2026-12-07-b37cbf3dd431')], projectRoot);
  t.notRegex(both.stdout, /no canary recorded/);
  t.regex(both.stdout, /canary ×\d/);
  const effects = join(projectRoot, 'reports', 'sandbox-effects', 'runs');
  const old = await runCli(['compare', join(effects, '2026-12-01-820456f05803'), join(effects, '2026-12-03-4572fafebd6b')], projectRoot);
  t.regex(old.stdout, /no canary recorded in the baseline/);
});
