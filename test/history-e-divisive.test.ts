import test from 'ava';
import { execFileSync } from 'node:child_process';
import { bestSplit, eDivisive } from '../harness/history/e-divisive.js';
import { seededRandom } from '../harness/stats/seeded-random.js';

const distances = (z: number[]): Float64Array[] => z.map((x) => Float64Array.from(z, (y) => Math.abs(x - y)));
const all = (): boolean => true;

test('the best split of 0 0 1 1 1 is at index 2 with the hand-computed divergence 2.4', (t) => {
  // tau=2, kappa=5: X={0,0}, Y={1,1,1}: 2/(2*3)*6 - 0 - 0 = 2; Q = (2*3/5) * 2 = 2.4
  // tau=2, kappa=4: Q = (2*2/4) * 2 = 2; tau=3, kappa=5: E = 4/3 - 2/3, Q = (3*2/5) * 2/3 = 0.8
  const z = [0, 0, 1, 1, 1];
  const best = bestSplit(distances(z), [0, 1, 2, 3, 4], 0, 5, 2, all)!;
  t.deepEqual({ tau: best.tau, kappa: best.kappa }, { tau: 2, kappa: 5 });
  t.true(Math.abs(best.statistic - 2.4) < 1e-12);
});

test('a split of 0 0 1 1 into two pairs has the hand-computed divergence 2', (t) => {
  const best = bestSplit(distances([0, 0, 1, 1]), [0, 1, 2, 3], 0, 4, 2, all)!;
  t.is(best.tau, 2);
  t.true(Math.abs(best.statistic - 2) < 1e-12);
});

test('splits fall only at the allowed boundaries', (t) => {
  // the step is at 3, but only 2 and 4 are allowed
  const best = bestSplit(distances([0, 0, 0, 5, 5, 5]), [0, 1, 2, 3, 4, 5], 0, 6, 2, (i) => i === 2 || i === 4)!;
  t.true(best.tau === 2 || best.tau === 4);
});

test('a clean step of twelve points is found where it is, with the smallest p-value the permutations allow', (t) => {
  const r = eDivisive([...Array(6).fill(10), ...Array(6).fill(20)], { permutations: 99, seed: 1 });
  t.deepEqual(
    r.changes.map((c) => c.index),
    [6],
  );
  t.is(r.changes[0]!.pValue, 1 / 100);
});

// Made-up series shared with R: one step, two steps, none, and a noisy one with no change.
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
function series(name: string, means: number[], sd: number): number[] {
  const random = seededRandom(name);
  return means.map((m) => Number((m + sd * normal(random)).toFixed(3)));
}
const rep = (v: number, n: number): number[] => Array<number>(n).fill(v);
const SERIES: { name: string; values: number[] }[] = [
  { name: 'one step', values: series('one step', [...rep(100, 12), ...rep(130, 12)], 3) },
  { name: 'two steps', values: series('two steps', [...rep(100, 10), ...rep(125, 10), ...rep(90, 10)], 3) },
  { name: 'none', values: series('none', rep(100, 24), 3) },
  // The first noisy draw ('noisy, no change') is in its own test below: strucchange calls a break in it.
  { name: 'noisy, no change (second draw)', values: series('noisy, no change (second draw)', rep(100, 30), 25) },
];
const MIN_SIZE = 3;

/** strucchange::breakpoints(y ~ 1, h = MIN_SIZE), number of breaks by BIC; as 0-based first indices after each break. */
function rBreakpoints(values: number[]): number[] {
  const script = `suppressMessages(library(strucchange)); y <- c(${values.join(',')}); bp <- breakpoints(y ~ 1, h = ${MIN_SIZE}); b <- breakpoints(bp)$breakpoints; cat(if (all(is.na(b))) "" else paste(b, collapse = " "))`;
  const out = execFileSync('Rscript', ['--vanilla', '-e', script], { encoding: 'utf8' }).trim();
  // R's breakpoint b is the last observation (1-based) before the break: the next one is 0-based index b
  return out === '' ? [] : out.split(/\s+/).map(Number);
}

for (const s of SERIES) {
  test(`e-divisive and R's strucchange breakpoints agree within one run on the series "${s.name}"`, (t) => {
    const ours = eDivisive(s.values, { minSize: MIN_SIZE, permutations: 199, seed: s.name }).changes.map((c) => c.index);
    const theirs = rBreakpoints(s.values);
    t.is(ours.length, theirs.length, `ours ${ours.join(',')} R ${theirs.join(',')}`);
    ours.forEach((index, i) => t.true(Math.abs(index - theirs[i]!) <= 1, `ours ${ours.join(',')} R ${theirs.join(',')}`));
  });
}

test('the expected change points of the made-up series: 12; 10 and 20; none; none in the noisy one', (t) => {
  const found = SERIES.map((s) => eDivisive(s.values, { minSize: MIN_SIZE, seed: s.name }).changes.map((c) => c.index));
  t.deepEqual(found, [[12], [10, 20], [], []]);
});

test('on a noisy draw with no change whose last five points happen to run high, e-divisive finds none where strucchange BIC calls a break, and its best candidate is that break', (t) => {
  // Where the two methods differ: BIC on a mean shift accepts the split at 25; the permutation test does not (p above 0.05).
  const values = series('noisy, no change', rep(100, 30), 25);
  const r = eDivisive(values, { minSize: MIN_SIZE, seed: 'noisy, no change' });
  t.deepEqual(r.changes, []);
  t.deepEqual(rBreakpoints(values), [25]);
  t.is(r.rejected!.index, 25);
  t.true(r.rejected!.pValue > 0.05);
});
