import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { coverageRowsFromCsv } from '../harness/report/coverage-rows.js';
import { coverageWarning } from '../harness/stats/coverage-warning.js';
import { projectRoot } from './helpers/cli.js';

const table = [
  'profile,sessions,rounds,effect,experiments,bootstrap_covers,t_covers,detected,resamples',
  'p1,3,10,0,100,90,96,1,2000',
  'p1,3,10,0.1,100,92,94,30,2000',
  'p2,3,10,0,100,99,95,0,2000',
  'p2,3,10,0.1,100,97,95,20,2000',
].join('\n');

test('each design keeps the lowest coverage over profiles, each profile pooled over its effects', (t) => {
  t.deepEqual(coverageRowsFromCsv(table), [
    { sessions: 3, rounds: 10, coverage: 0.95, interval: 'between-session t' },
    { sessions: 3, rounds: 10, coverage: 0.91, interval: 'two-level bootstrap' },
  ]);
});

test('the published coverage table warns for 3 sessions × 20 rounds', (t) => {
  const rows = coverageRowsFromCsv(readFileSync(join(projectRoot, 'reports', 'calibration', 'coverage.csv'), 'utf8'));
  t.regex(coverageWarning(rows, 3, 20) ?? '', /^in simulation with 3 sessions × 20 rounds, the two-level bootstrap interval covered/);
});
