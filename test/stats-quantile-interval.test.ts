import test from 'ava';
import { execFileSync } from 'node:child_process';
import { binomialCdf, minSupportedN, quantileInterval } from '../harness/stats/quantile-interval.js';
import { medianInterval } from '../harness/stats/median-interval.js';
import { seededRandom } from '../harness/stats/seeded-random.js';

// Debian's python3 with python3-scipy (installed by setup.sh) is the independent reference.
const python = (script: string, input: unknown): unknown =>
  JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(input) }).toString());

test('the order-statistic ranks of a quantile interval agree with ranks chosen from SciPy binom.cdf', (t) => {
  const cases = [
    { n: 6, p: 0.5 },
    { n: 20, p: 0.5 },
    { n: 72, p: 0.95 },
    { n: 100, p: 0.95 },
    { n: 400, p: 0.95 },
    { n: 368, p: 0.99 },
    { n: 1000, p: 0.99 },
    { n: 71, p: 0.95 },
    { n: 367, p: 0.99 },
  ];
  const ref = python(
    [
      'import json, sys',
      'from scipy.stats import binom',
      'out = []',
      'for c in json.load(sys.stdin):',
      '    n, p = c["n"], c["p"]',
      '    lows = [l for l in range(1, n + 1) if binom.cdf(l - 1, n, p) <= 0.025]',
      '    highs = [u for u in range(1, n + 1) if binom.cdf(u - 1, n, p) >= 0.975]',
      '    out.append([max(lows) if lows else None, min(highs) if highs else None])',
      'print(json.dumps(out))',
    ].join('\n'),
    cases,
  ) as [number | null, number | null][];
  cases.forEach((c, i) => {
    const values = Array.from({ length: c.n }, (_, k) => k + 1); // x(k) = k: a bound's value is its rank
    const mine = quantileInterval(values, c.p);
    const [low, high] = ref[i]!;
    if (low === null || high === null) t.is(mine, null, `n ${c.n}, p ${c.p}: SciPy finds no ranks`);
    else t.deepEqual([mine?.lowRank, mine?.highRank, mine?.low, mine?.high], [low, high, low, high], `n ${c.n}, p ${c.p}`);
  });
});

test('the smallest supported n is 6 for a median, 72 for a P95 and 368 for a P99 at 95%, and the interval exists from there on', (t) => {
  t.deepEqual([minSupportedN(0.5), minSupportedN(0.95), minSupportedN(0.99)], [6, 72, 368]);
  for (const p of [0.5, 0.95, 0.99]) {
    const n = minSupportedN(p);
    const at = (k: number) =>
      quantileInterval(
        Array.from({ length: k }, (_, i) => i),
        p,
      );
    t.is(at(n - 1), null, `p ${p}: n − 1 is not enough`);
    t.not(at(n), null, `p ${p}: n is enough`);
  }
});

test('at p = 0.5 the interval is the sign-test interval of the median', (t) => {
  const rnd = seededRandom('quantile-interval-median');
  for (const n of [6, 7, 15, 40, 101]) {
    const xs = Array.from({ length: n }, () => rnd() * 100);
    const q = quantileInterval(xs, 0.5)!;
    const m = medianInterval(xs)!;
    t.deepEqual([q.low, q.high], [m.low, m.high], `n ${n}`);
  }
});

test('binomialCdf agrees with a direct sum', (t) => {
  const direct = (k: number, n: number, p: number): number => {
    let s = 0;
    let term = (1 - p) ** n;
    for (let i = 0; i <= k; i++) {
      s += term;
      term *= ((n - i) / (i + 1)) * (p / (1 - p));
    }
    return s;
  };
  for (const [k, n, p] of [
    [3, 10, 0.3],
    [60, 72, 0.95],
    [0, 5, 0.5],
    [60, 100, 0.5],
  ] as const)
    t.true(Math.abs(binomialCdf(k, n, p) - direct(k, n, p)) < 1e-9, `${k} of ${n} at ${p}`);
});

test('a p outside (0, 1) is a bug, not an interval', (t) => {
  t.throws(() => quantileInterval([1, 2, 3], 1));
  t.throws(() => quantileInterval([1, 2, 3], 0));
});
