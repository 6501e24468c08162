import test from 'ava';
import { execFileSync } from 'node:child_process';
import { clopperPearson } from '../harness/stats/clopper-pearson.js';

// Debian's python3 with python3-scipy (installed by setup.sh) is the independent reference.
const python = (script: string, input: unknown): unknown =>
  JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(input) }).toString());

test('Clopper-Pearson intervals agree with SciPy binomtest(...).proportion_ci(method="exact")', (t) => {
  const cases = [
    { k: 0, n: 40, c: 0.95 },
    { k: 1, n: 40, c: 0.95 },
    { k: 2, n: 40, c: 0.95 },
    { k: 40, n: 40, c: 0.95 },
    { k: 12, n: 200, c: 0.95 },
    { k: 50, n: 1000, c: 0.95 },
    { k: 950, n: 1000, c: 0.95 },
    { k: 3, n: 7, c: 0.99 },
    { k: 5, n: 400, c: 0.999 },
  ];
  const ref = python(
    [
      'import json, sys',
      'from scipy.stats import binomtest',
      'out = []',
      'for c in json.load(sys.stdin):',
      '    ci = binomtest(c["k"], c["n"]).proportion_ci(confidence_level=c["c"], method="exact")',
      '    out.append([ci.low, ci.high])',
      'print(json.dumps(out))',
    ].join('\n'),
    cases,
  ) as [number, number][];
  cases.forEach((c, i) => {
    const mine = clopperPearson(c.k, c.n, c.c);
    const [low, high] = ref[i]!;
    t.true(Math.abs(mine.low - low) < 1e-9, `${c.k}/${c.n} at ${c.c}: low ${mine.low} vs SciPy ${low}`);
    t.true(Math.abs(mine.high - high) < 1e-9, `${c.k}/${c.n} at ${c.c}: high ${mine.high} vs SciPy ${high}`);
  });
});

test('a count outside 0..trials is a bug, not an interval', (t) => {
  t.throws(() => clopperPearson(5, 4));
  t.throws(() => clopperPearson(-1, 4));
  t.throws(() => clopperPearson(1.5, 4));
});
