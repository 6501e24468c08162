import test from 'ava';
import { execFileSync } from 'node:child_process';
import { pairedRoundBootstrap, type PairedRound } from '../harness/stats/paired-bootstrap.js';
import { quantile } from '../harness/stats/quantile.js';
import { randomInt, seededRandom } from '../harness/stats/seeded-random.js';

const rounds: PairedRound[] = [
  { a: [120], b: [100] },
  { a: [130], b: [90] },
  { a: [110], b: [105] },
  { a: [300], b: [95] },
  { a: [125], b: [101] },
  { a: [118], b: [99, 97] },
  { a: [], b: [98] }, // incomplete: not a resampling unit
];

/** The textbook computation: materialize every resample and take medians of the pooled values. */
function naiveBootstrap(all: PairedRound[], resamples: number, seed: string): { observed: number; low: number; high: number } {
  const complete = all.filter((r) => r.a.length > 0 && r.b.length > 0);
  const random = seededRandom(seed);
  const diffs: number[] = [];
  for (let s = 0; s < resamples; s++) {
    const a: number[] = [];
    const b: number[] = [];
    for (let j = 0; j < complete.length; j++) {
      const r = complete[randomInt(random, complete.length)]!;
      a.push(...r.a);
      b.push(...r.b);
    }
    diffs.push(quantile(a, 0.5) - quantile(b, 0.5));
  }
  const observed =
    quantile(
      complete.flatMap((r) => r.a),
      0.5,
    ) -
    quantile(
      complete.flatMap((r) => r.b),
      0.5,
    );
  return { observed, low: quantile(diffs, 0.025), high: quantile(diffs, 0.975) };
}

test('the paired-round bootstrap equals a naive materialized computation on a small case', (t) => {
  const fast = pairedRoundBootstrap(rounds, { resamples: 2000, confidence: 0.95, seed: 'small' });
  const naive = naiveBootstrap(rounds, 2000, 'small');
  t.is(fast.rounds, 6);
  t.is(fast.observed, naive.observed);
  t.is(fast.low, naive.low);
  t.is(fast.high, naive.high);
  t.false(fast.containsZero);
});

test('the same seed gives the same interval', (t) => {
  const one = pairedRoundBootstrap(rounds, { resamples: 500, confidence: 0.95, seed: 7 });
  t.deepEqual(one, pairedRoundBootstrap(rounds, { resamples: 500, confidence: 0.95, seed: 7 }));
});

test('an interval containing 0 means no difference detected', (t) => {
  const same: PairedRound[] = Array.from({ length: 20 }, (_, i) => ({ a: [100 + (i % 5)], b: [100 + ((i * 3) % 5)] }));
  const r = pairedRoundBootstrap(same, { resamples: 1000, confidence: 0.95, seed: 's' });
  t.true(r.low! <= 0 && r.high! >= 0);
  t.true(r.containsZero);
});

test('no complete round gives no difference', (t) => {
  const r = pairedRoundBootstrap([{ a: [1], b: [] }], { resamples: 10, confidence: 0.95, seed: 's' });
  t.is(r.observed, null);
  t.is(r.rounds, 0);
});

// Debian's python3 with python3-numpy (installed by setup.sh) is the independent reference.
const PYTHON = '/usr/bin/python3';

function hasNumpy(): boolean {
  try {
    execFileSync(PYTHON, ['-c', 'import numpy'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test('resampled medians and the percentile interval agree with NumPy given the same draws', (t) => {
  t.true(hasNumpy(), `${PYTHON} cannot import numpy: install Debian python3-numpy (./setup.sh does)`);
  const complete = rounds.filter((r) => r.a.length > 0 && r.b.length > 0);
  const random = seededRandom('numpy');
  const draws = Array.from({ length: 300 }, () => Array.from({ length: complete.length }, () => randomInt(random, complete.length)));
  const script = `
import json, sys, numpy as np
d = json.load(sys.stdin)
rounds, draws = d['rounds'], d['draws']
diffs = [np.median(np.concatenate([rounds[i]['a'] for i in dr])) - np.median(np.concatenate([rounds[i]['b'] for i in dr])) for dr in draws]
print(json.dumps([float(np.percentile(diffs, 2.5)), float(np.percentile(diffs, 97.5))]))
`;
  const out = execFileSync(PYTHON, ['-c', script], { input: JSON.stringify({ rounds: complete, draws }) }).toString();
  const [low, high] = JSON.parse(out) as [number, number];
  const fast = pairedRoundBootstrap(rounds, { resamples: 300, confidence: 0.95, seed: 'numpy' });
  t.true(Math.abs(fast.low! - low) < 1e-9, `${fast.low} vs ${low}`);
  t.true(Math.abs(fast.high! - high) < 1e-9, `${fast.high} vs ${high}`);
});
