import test from 'ava';
import { readFileSync } from 'node:fs';
import { clusterSorted, defaultClusterRule } from '../harness/stats/cluster-rule.js';
import { csvRecords } from '../harness/db/csv-records.js';
import { seededRandom, type Random } from '../harness/stats/seeded-random.js';
import { sortedAscending } from '../harness/stats/sorted-values.js';

function normal(random: Random): number {
  // Box-Muller; 1 - u keeps the logarithm finite.
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

function logNormalCell(seed: number, sigma: number): number[] {
  const random = seededRandom(`lognormal-${sigma}-${seed}`);
  return sortedAscending(Array.from({ length: 30 }, () => 100 * Math.exp(sigma * normal(random))));
}

/** Two normal groups of equal spread whose centres are 10 spreads apart; the smaller holds `small` of 30. */
function twoGroupCell(seed: number, small: number): number[] {
  const random = seededRandom(`two-groups-${small}-${seed}`);
  const spreadMs = 5;
  const values: number[] = [];
  for (let i = 0; i < 30 - small; i++) values.push(100 + spreadMs * normal(random));
  for (let i = 0; i < small; i++) values.push(100 + 10 * spreadMs + spreadMs * normal(random));
  return sortedAscending(values);
}

for (const sigma of [0.05, 0.2, 0.5, 1]) {
  test(`a unimodal log-normal cell of 30 (sigma ${sigma}) stays unsplit for at least 95 of 100 seeds`, (t) => {
    let unsplit = 0;
    for (let seed = 0; seed < 100; seed++) if (clusterSorted(logNormalCell(seed, sigma), defaultClusterRule).length === 1) unsplit++;
    t.log(`unsplit ${unsplit}/100`);
    t.true(unsplit >= 95);
  });
}

for (const small of [6, 10, 15]) {
  test(`two groups 10 spreads apart with the smaller holding ${small} of 30 split for at least 95 of 100 seeds`, (t) => {
    let split = 0;
    for (let seed = 0; seed < 100; seed++) {
      const groups = clusterSorted(twoGroupCell(seed, small), defaultClusterRule);
      if (groups.length === 2 && groups[1]!.n === small) split++;
    }
    t.log(`split ${split}/100`);
    t.true(split >= 95);
  });
}

test('groups partition the cell and report median, share, min and max', (t) => {
  const values = [10, 11, 12, 13, 14, 100, 101, 102, 103, 104];
  const groups = clusterSorted(values, { minGapRatio: 4, minGroupShare: 0.2, maxGroups: 2 });
  t.deepEqual(groups, [
    { n: 5, share: 0.5, median: 12, min: 10, max: 14 },
    { n: 5, share: 0.5, median: 102, min: 100, max: 104 },
  ]);
});

test('maxGroups 1 never splits', (t) => {
  const values = [10, 11, 12, 13, 14, 100, 101, 102, 103, 104];
  t.is(clusterSorted(values, { minGapRatio: 4, minGroupShare: 0.2, maxGroups: 1 }).length, 1);
});

test('a group smaller than the minimum share is not split off', (t) => {
  const values = [10, 11, 12, 13, 14, 15, 16, 17, 18, 500];
  t.is(clusterSorted(values, { minGapRatio: 4, minGroupShare: 0.2, maxGroups: 2 }).length, 1);
});

test('groups of 3, 4 and 3 of 10 launches are not clusters under the default minimum group size; the same gaps split with it lowered', (t) => {
  const values = [100, 101, 102, 300, 301, 302, 303, 600, 601, 602];
  t.is(clusterSorted(values, defaultClusterRule).length, 1);
  t.deepEqual(
    clusterSorted(values, { ...defaultClusterRule, minGroupN: 3 }).map((g) => g.n),
    [3, 4, 3],
  );
});

test('the rule is deterministic: the same values give the same groups', (t) => {
  const cell = twoGroupCell(7, 8);
  t.deepEqual(clusterSorted(cell, defaultClusterRule), clusterSorted([...cell], defaultClusterRule));
});

/** Three normal modes of 15, 10 and 5 launches at 3.5, 6.9 and 10.3 s, spread 80 ms (the shape issue 18 describes). */
function threeModeCell(seed: number): number[] {
  const random = seededRandom(`three-modes-${seed}`);
  const values: number[] = [];
  for (const [n, centreMs] of [
    [15, 3500],
    [10, 6900],
    [5, 10300],
  ] as const)
    for (let i = 0; i < n; i++) values.push(centreMs + 80 * normal(random));
  return sortedAscending(values);
}

test('a made-up cell of 15/10/5 launches at about 3.5/6.9/10.3 s splits into three groups for at least 95 of 100 seeds', (t) => {
  let three = 0;
  for (let seed = 0; seed < 100; seed++) {
    const groups = clusterSorted(threeModeCell(seed), defaultClusterRule);
    if (groups.map((g) => g.n).join('/') === '15/10/5') three++;
  }
  t.log(`three groups ${three}/100`);
  t.true(three >= 95);
});

test('the pre-settle published numpy cold oci-full Ready cell (archived) splits into its three modes: 15 at 3.37-3.55 s, 10 at 6.5-7.2 s, 5 at 10.2-10.6 s', (t) => {
  const recs = csvRecords(readFileSync('reports/lazy-startup/runs/2026-12-01-25bf80d30cc6/samples.csv', 'utf8'));
  const header = recs[0]!.fields;
  const col = (name: string): number => header.indexOf(name);
  const values = recs
    .slice(1)
    .map((r) => r.fields)
    .filter((f) => f[col('phase')] === 'formal' && f[col('cohort')] === 'numpy' && f[col('path')] === 'oci-full' && f[col('state')] === 'cold')
    .map((f) => Number(f[col('ready_ms')]));
  t.is(values.length, 30);
  const groups = clusterSorted(sortedAscending(values), defaultClusterRule);
  t.deepEqual(
    groups.map((g) => g.n),
    [15, 10, 5],
  );
  t.true(groups[0]!.min >= 3300 && groups[0]!.max <= 3550);
  t.true(groups[1]!.min >= 6500 && groups[1]!.max <= 7250);
  t.true(groups[2]!.min >= 10100 && groups[2]!.max <= 10600);
});

test('with two groups the score is the gap over the pooled spread of both sides, as before (made-up values)', (t) => {
  // gap 4, pooled SD of [0,1,2] and [6,7,8] is 1: splits at ratio 4, not above
  const values = [0, 1, 2, 6, 7, 8];
  t.is(clusterSorted(values, { minGapRatio: 4, minGroupShare: 0.3, maxGroups: 4 }).length, 2);
  t.is(clusterSorted(values, { minGapRatio: 4.01, minGroupShare: 0.3, maxGroups: 4 }).length, 1);
});
