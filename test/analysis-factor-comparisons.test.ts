// Comparisons along any factor of the design (issue 30, item 4): the smoke
// pipeline with one unit comparison (cohort tail − echo, whose only difference
// is a 20 ms sleep after the marker) and one condition comparison (cold −
// warm). Each is paired by round, judged and published like a comparison of
// paths: analysis.json, differences.csv (its factor and path columns), the
// report's "Along other factors" section, and `pipeline compare`. The paired
// estimate is recomputed here from samples.csv, independently of the analysis.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnalysisResult } from '../harness/analysis/analysis-result.js';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import { runCli, smokeProject } from './helpers/cli.js';

/** Type-7 median of a non-empty list. */
function median(xs: readonly number[]): number {
  const s = [...xs].sort((p, q) => p - q);
  const h = (s.length - 1) / 2;
  return s[Math.floor(h)]! + (s[Math.ceil(h)]! - s[Math.floor(h)]!) * (h - Math.floor(h));
}

test('unit and condition comparisons of the smoke pipeline: paired by round, judged, published, and read by compare', async (t) => {
  t.timeout(180_000);
  const dir = smokeProject({
    replace: '    - { a: paused, b: direct }\n',
    with: '    - { a: paused, b: direct }\n    - { factor: unit, a: tail, b: echo }\n    - { factor: condition, a: cold, b: warm }\n',
  });
  const r = await runCli(['run'], dir);
  t.is(r.code, 0, r.stderr);

  const lock = JSON.parse(readFileSync(join(dir, 'pipeline.lock'), 'utf8')) as { stages: Record<string, { key: string }> };
  const a = JSON.parse(
    readFileSync(join(dir, '.data', 'stages', 'analyze', lock.stages['analyze']!.key, 'outputs', 'analysis.json'), 'utf8'),
  ) as AnalysisResult;
  const factors = a.factorDifferences ?? [];
  // unit: 2 paths × 2 states × 2 metrics; condition: 2 cohorts × 2 paths × 2 metrics
  t.is(factors.filter((d) => d.factor === 'unit').length, 8);
  t.is(factors.filter((d) => d.factor === 'condition').length, 8);
  t.true(a.differences.length > 0);
  t.deepEqual(
    a.differences.map((d) => `${d.a}-${d.b}`),
    a.differences.map(() => 'paused-direct'),
    'the paths are compared as configured, and only them',
  );

  // Recomputed from samples.csv: the formal rounds holding both sides, and median(a) − median(b) over them.
  const samples = parseCsvTable(readFileSync(join(dir, 'reports', 'smoke', 'samples.csv'), 'utf8')).rows.filter(
    (s) => s['phase'] === 'formal' && s['ok'] === 'true',
  );
  for (const d of factors) {
    const column = d.metric === 'ready' ? 'ready_ms' : 'completion_ms';
    const side = (level: string) =>
      samples.filter((s) =>
        d.factor === 'unit'
          ? s['cohort'] === level && s['path'] === d.path && s['state'] === d.state
          : s['cohort'] === d.cohort && s['path'] === d.path && s['state'] === level,
      );
    const round = (s: Record<string, string>) => `${s['session']}/${s['round']}`;
    const [sa, sb] = [side(d.a), side(d.b)];
    const both = new Set(sa.map(round).filter((k) => sb.some((s) => round(s) === k)));
    t.is(d.rounds, both.size, `${d.factor} ${d.a}−${d.b} ${d.metric}: rounds`);
    const values = (rows: Record<string, string>[]) => rows.filter((s) => both.has(round(s))).map((s) => Number(s[column]));
    t.true(Math.abs(d.observedMs! - (median(values(sa)) - median(values(sb)))) < 1e-3, `${d.factor} ${d.a}−${d.b} ${d.metric}: observed`);
    t.true(['lower', 'higher', 'equivalent', 'undecided'].includes(d.verdict.verdict));
  }
  // tail sleeps 20 ms after its marker, so each of its launches completes at least 20 ms after spawn on any machine
  // (a difference of medians between the cohorts is no such bound: noise on a slow machine shrank one to 13.6 ms)
  for (const s of samples.filter((x) => x['cohort'] === 'tail')) t.true(Number(s['completion_ms']) >= 20, `${s['launch_id']}: ${s['completion_ms']}`);

  const csv = parseCsvTable(readFileSync(join(dir, 'reports', 'smoke', 'differences.csv'), 'utf8'));
  t.true(csv.header.includes('factor') && csv.header.includes('path'));
  t.is(csv.rows.filter((row) => row['factor'] === 'unit').length, 8);
  t.is(csv.rows.filter((row) => row['factor'] === 'condition').length, 8);

  const report = readFileSync(join(dir, 'reports', 'smoke', 'report.md'), 'utf8');
  t.regex(report, /## Along other factors/);
  t.regex(report, /\| cohort tail − echo \| path direct, cold \| completion \|/);
  t.regex(report, /\| state cold − warm \| cohort echo, path paused \| ready \|/);

  // compare reads them: the same report against itself holds every conclusion, the factor ones named by their fixed levels
  const folder = join(dir, 'reports', 'smoke');
  const c = await runCli(['compare', folder, folder], dir);
  t.is(c.code, 0, c.stderr);
  const conclusions = a.differences.length + factors.length;
  t.regex(c.stdout, new RegExp(`${conclusions} of ${conclusions} conclusions held in direction`));
  t.regex(c.stdout, /direct cold completion: tail − echo \(cohorts\) +tail > echo +tail > echo +held/);

  // and history: each factor conclusion is one series, keyed and named by its fixed levels
  const h = await runCli(['history', folder, '--json'], dir);
  t.is(h.code, 0, h.stderr);
  const series = (JSON.parse(h.stdout) as { conclusions: { factor?: string; path?: string; state: string; metric: string; a: string; b: string }[] })
    .conclusions;
  t.is(series.filter((s) => s.factor === 'unit').length, 8);
  t.is(series.filter((s) => s.factor === 'condition').length, 8);
  t.truthy(
    series.find((s) => s.factor === 'unit' && s.path === 'direct' && s.state === 'cold' && s.metric === 'completion' && s.a === 'tail' && s.b === 'echo'),
  );
  const table = await runCli(['history', folder], dir);
  t.regex(table.stdout, /\ndirect cold completion: tail − echo \(cohorts\) +\d+\.\d\*/);
});
