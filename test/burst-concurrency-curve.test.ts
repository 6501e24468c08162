import test from 'ava';
import { execFileSync } from 'node:child_process';
import { summarizeBursts, type BurstLaunch } from '../harness/stats/burst-summary.js';
import { concurrencyCurve, type CurvePoint } from '../harness/burst/concurrency-curve.js';
import { kneeOf } from '../harness/burst/knee.js';
import { seededRandom } from '../harness/stats/seeded-random.js';

// Debian's python3 with NumPy and SciPy (installed by setup.sh) is the independent reference.
const python = (script: string, input: unknown): unknown =>
  JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(input) }).toString());

/** Made-up launches: `sessions` sessions × `bursts` bursts per level; Ready grows with N by `growth` per doubling. */
function madeUp(levels: number[], sessions: number, bursts: number, growth: number, seed: string, fail = () => false): BurstLaunch[] {
  const rnd = seededRandom(seed);
  const out: BurstLaunch[] = [];
  for (let s = 1; s <= sessions; s++) {
    const drift = 1 + (rnd() - 0.5) * 0.1;
    for (const n of levels)
      for (let b = 1; b <= bursts; b++)
        for (let i = 0; i < n; i++) {
          const ok = !fail();
          out.push({ path: 'crun', level: n, session: s, burst: `b${b}`, readyMs: ok ? 100 * drift * growth ** Math.log2(n) * (1 + rnd() * 0.2) : null, ok });
        }
  }
  return out;
}

test('a burst (made-up launches): first Ready, makespan and launches/s; a failed launch leaves no makespan', (t) => {
  const l = (readyMs: number | null, burst = 'b1'): BurstLaunch => ({ path: 'p', level: 3, session: 1, burst, readyMs, ok: readyMs !== null });
  const [whole, failed] = summarizeBursts([l(120), l(80), l(200), l(50, 'b2'), l(null, 'b2'), l(70, 'b2')]);
  t.deepEqual(
    { first: whole!.firstReadyMs, makespan: whole!.makespanMs, rate: whole!.launchesPerS, failures: whole!.failures },
    { first: 80, makespan: 200, rate: 15, failures: 0 },
  );
  t.deepEqual(
    { first: failed!.firstReadyMs, makespan: failed!.makespanMs, rate: failed!.launchesPerS, failures: failed!.failures },
    { first: 50, makespan: null, rate: null, failures: 1 },
  );
  t.throws(() => summarizeBursts([l(1), l(2)]), { message: /has 2 launches, not its N = 3/ });
});

test('the curve (made-up launches): P50 and ratio intervals equal NumPy/SciPy t intervals over the per-session log values', (t) => {
  const launches = madeUp([1, 4, 16], 5, 3, 1.3, 'curve');
  const points = concurrencyCurve(launches);
  const ref = python(
    [
      'import json, sys, numpy as np',
      'from scipy import stats',
      'rows = json.load(sys.stdin)',
      'def tint(x):',
      '    x = np.log(np.array(x)); k = len(x); h = stats.t.ppf(0.975, k - 1) * x.std(ddof=1) / np.sqrt(k)',
      '    return [float(np.exp(x.mean())), float(np.exp(x.mean() - h)), float(np.exp(x.mean() + h))]',
      'def p50(level, s): return float(np.median([r["readyMs"] for r in rows if r["level"] == level and r["session"] == s]))',
      'sessions = sorted({r["session"] for r in rows})',
      'out = {}',
      'for n in (1, 4, 16):',
      '    out[str(n)] = {"p50": tint([p50(n, s) for s in sessions]), "ratio": tint([p50(n, s) / p50(1, s) for s in sessions]) if n > 1 else None}',
      'print(json.dumps(out))',
    ].join('\n'),
    launches,
  ) as Record<string, { p50: number[]; ratio: number[] | null }>;
  const close = (a: number | null | undefined, b: number): boolean => a !== null && a !== undefined && Math.abs(a - b) < 1e-9 * Math.max(1, Math.abs(b));
  for (const p of points) {
    const r = ref[String(p.level)]!;
    t.true(
      close(p.p50Ms?.value, r.p50[0]!) && close(p.p50Ms?.low, r.p50[1]!) && close(p.p50Ms?.high, r.p50[2]!),
      `N ${p.level} P50 ${JSON.stringify(p.p50Ms)} vs ${r.p50}`,
    );
    if (r.ratio)
      t.true(close(p.ratioToSequential?.value, r.ratio[0]!) && close(p.ratioToSequential?.low, r.ratio[1]!) && close(p.ratioToSequential?.high, r.ratio[2]!));
    else t.is(p.ratioToSequential, null);
  }
});

test('the curve (made-up launches): tail percentiles only where n supports an interval, failures with their Clopper-Pearson interval', (t) => {
  let i = 0;
  const points = concurrencyCurve(madeUp([1, 16], 5, 1, 1.2, 'tails', () => ++i % 10 === 0));
  const at = (n: number): CurvePoint => points.find((p) => p.level === n)!;
  // N = 1: 5 launches; N = 16: 80 launches, 8 failed, 72 Ready
  t.deepEqual(
    at(1).tails.map((x) => x.interval),
    [null, null],
  );
  t.not(at(16).tails[0]!.interval, null, 'P95 of 72 Ready launches');
  t.is(at(16).tails[1]!.interval, null, 'no P99 of 72');
  t.is(at(16).tails[1]!.needN, 368);
  t.is(at(16).failures.successes + at(1).failures.successes, Math.floor(85 / 10));
  t.true(at(16).failures.low > 0 && at(16).failures.high < 0.25);
  t.is(at(16).makespanMs, null, 'every N = 16 burst had a failure');
});

const point = (level: number, value: number, low: number | null, high: number | null): CurvePoint => ({
  path: 'p',
  level,
  sessions: 5,
  bursts: 5,
  launches: 5 * level,
  failures: { successes: 0, trials: 5 * level, rate: 0, low: 0, high: 0.5, confidence: 0.95 },
  p50Ms: { value: level === 1 ? 100 : 100 * value, low: null, high: null },
  tails: [],
  makespanMs: null,
  launchesPerS: null,
  ratioToSequential: level === 1 ? null : { value, low, high },
});

test('the knee (made-up curve points): estimate, earliest and latest level against the practical margin', (t) => {
  const margin = { minRatioChange: 0.05, minMs: 10 }; // 10 ms of a 100 ms P50: δ = 10%
  const curve = [point(1, 1, null, null), point(2, 1.02, 0.98, 1.12), point(4, 1.08, 1.01, 1.15), point(8, 1.3, 1.2, 1.4), point(16, 2, 1.8, 2.2)];
  t.deepEqual(kneeOf(curve, 'p', margin), { path: 'p', thresholdRatio: 1.1, level: 8, earliest: 2, latest: 8, largestLevel: 16 });
  const flat = [point(1, 1, null, null), point(2, 1.01, 0.99, 1.03), point(4, 1.02, 0.98, 1.12)];
  t.deepEqual(kneeOf(flat, 'p', margin), { path: 'p', thresholdRatio: 1.1, level: null, earliest: 4, latest: null, largestLevel: 4 });
  t.is(kneeOf(flat, 'other', margin), null);
});
