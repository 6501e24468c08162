// pipeline compare reads every experiment's report folders alike: two
// commit-diff folders and two effect-table folders, written by the shared
// comparison CSV writer from made-up sessions (a test of our own logic). A
// ratio that reverses is a changed conclusion: exit 1, named.
import { judge } from '../harness/comparison/judge.js';
import { defaultPracticalMargin } from '../harness/config/practical-margin.js';
import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { comparisonDifferencesCsv, comparisonStatisticsCsv, type ComparisonLine } from '../harness/publish/comparison-csv.js';
import { judgedComparison } from '../harness/analysis/direction-rule.js';
import { seededRandom } from '../harness/stats/seeded-random.js';
import { pairSessions, type SessionRow } from '../harness/stats/two-level-bootstrap.js';
import { projectRoot, runCli, tempDir } from './helpers/cli.js';

/** 3 sessions x 8 rounds where a = factor x b. */
function ratio(factor: number, seed: string, a: string, b: string) {
  const random = seededRandom(seed);
  const rows: SessionRow[] = [];
  for (let session = 1; session <= 3; session++)
    for (let round = 1; round <= 8; round++) {
      const base = 100 + 10 * random();
      rows.push({ session, round, path: a, value: base * factor * (0.97 + 0.06 * random()) }, { session, round, path: b, value: base });
    }
  return judgedComparison(pairSessions(rows, a, b), 'ratio', { resamples: 500, confidence: 0.95, seed });
}

/** A line with the verdict its analysis would give it (a fixed design, the default margin). */
const judged = (l: Omit<ComparisonLine, 'verdict'>): ComparisonLine => ({ ...l, verdict: judge(l.comparison, [], null, defaultPracticalMargin, null).verdict });

function folder(dir: string, name: string, lines: ComparisonLine[]): string {
  const out = join(dir, name);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'differences.csv'), comparisonDifferencesCsv(lines));
  writeFileSync(
    join(out, 'statistics.csv'),
    comparisonStatisticsCsv(
      lines.flatMap((l) => [l.a, l.b].map((path) => ({ cohort: l.cohort, path, state: l.state, metric: l.metric, unit: l.unit, n: 24, p50: 100 }))),
    ),
  );
  return out;
}

test('two commit-diff report folders: a naive/native ratio that reverses is named as changed, exit 1', async (t) => {
  const dir = tempDir();
  const line = (state: string, factor: number, seed: string): ComparisonLine =>
    judged({
      cohort: 'total_mb=100,file_count=100,change_bytes=1024',
      state,
      metric: 'completion',
      a: 'naive',
      b: 'native',
      unit: 'ms',
      comparison: ratio(factor, seed, 'naive', 'native'),
    });
  const base = folder(dir, 'base', [line('initial', 1.0, 'i1'), line('incremental', 8, 'n1')]);
  const same = folder(dir, 'same', [line('initial', 1.0, 'i2'), line('incremental', 7.5, 'n2')]);
  const reversed = folder(dir, 'reversed', [line('initial', 1.0, 'i3'), line('incremental', 0.5, 'n3')]);
  const held = await runCli(['compare', base, same], projectRoot);
  t.is(held.code, 0, held.stderr);
  t.regex(held.stdout, /2 of 2 conclusions held/);
  const r = await runCli(['compare', base, reversed], projectRoot);
  t.is(r.code, 1, r.stdout);
  t.regex(r.stderr, /changed: total_mb=100,file_count=100,change_bytes=1024 incremental completion: naive − native \(naive > native → naive < native\)/);
});

test('two effect-table report folders: an after/before ratio that reverses is named as changed, exit 1', async (t) => {
  const dir = tempDir();
  const line = (row: string, factor: number, seed: string): ComparisonLine =>
    judged({ cohort: row, state: 'none', metric: 'ready', a: 'after', b: 'before', unit: 'ms', comparison: ratio(factor, seed, 'after', 'before') });
  const base = folder(dir, 'base', [line('restore-page-cache', 0.75, 'p1'), line('forks', 1.0, 'f1')]);
  const reversed = folder(dir, 'reversed', [line('restore-page-cache', 1.4, 'p2'), line('forks', 1.0, 'f2')]);
  const r = await runCli(['compare', base, reversed], projectRoot);
  t.is(r.code, 1, r.stdout);
  t.regex(r.stderr, /changed: restore-page-cache none ready: after − before \(after < before → after > before\)/);
});
