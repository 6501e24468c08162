// The one comparison statistic: difference and ratio of medians over sessions
// of paired rounds, with the between-session rule as named findings. NumPy
// and SciPy (Debian python3-numpy, python3-scipy) are the independent references.
import test from 'ava';
import { twoLevelDraws } from './helpers/two-level-draws.js';
import { execFileSync } from 'node:child_process';
import { pairedComparison } from '../harness/stats/paired-comparison.js';
import { seededRandom } from '../harness/stats/seeded-random.js';
import { pairSessions, type PairedSession, type SessionRow } from '../harness/stats/two-level-bootstrap.js';

const PYTHON = '/usr/bin/python3';

/** Sessions of rounds where a = factor × b, with noise; `factors` per session. */
function scaledSessions(factors: readonly number[], rounds: number, seed: string): PairedSession[] {
  const random = seededRandom(seed);
  const rows: SessionRow[] = [];
  factors.forEach((f, i) => {
    for (let round = 1; round <= rounds; round++) {
      const b = 100 + 20 * random();
      rows.push({ session: i + 1, round, path: 'a', value: b * f * (0.98 + 0.04 * random()) });
      rows.push({ session: i + 1, round, path: 'b', value: b });
    }
  });
  return pairSessions(rows, 'a', 'b');
}

test('the ratio statistic resamples medians a / b as NumPy does given the same draws', (t) => {
  const sessions = scaledSessions([1.3, 1.25, 1.35], 12, 'ratio-numpy');
  const resamples = 300;
  const draws = twoLevelDraws(sessions, resamples, 'ratio-draws');
  const script = `
import json, sys, numpy as np
d = json.load(sys.stdin)
S, draws = d['sessions'], d['draws']
def ratio(picked):
    a = np.concatenate([S[s]['rounds'][r]['a'] for s, r in picked])
    b = np.concatenate([S[s]['rounds'][r]['b'] for s, r in picked])
    return np.median(a) / np.median(b)
rs = [ratio(p) for p in draws]
allr = [(s, r) for s in range(len(S)) for r in range(len(S[s]['rounds']))]
print(json.dumps([float(ratio(allr)), float(np.percentile(rs, 2.5)), float(np.percentile(rs, 97.5))]))
`;
  const [observed, low, high] = JSON.parse(execFileSync(PYTHON, ['-c', script], { input: JSON.stringify({ sessions, draws }) }).toString()) as number[];
  const r = pairedComparison(sessions, 'ratio', { resamples, confidence: 0.95, seed: 'ratio-draws' });
  t.true(Math.abs(r.observed! - observed!) < 1e-12, `${r.observed} vs ${observed}`);
  t.true(Math.abs(r.low! - low!) < 1e-12, `${r.low} vs ${low}`);
  t.true(Math.abs(r.high! - high!) < 1e-12, `${r.high} vs ${high}`);
});

test('the between-session interval of a ratio is the t interval of the log session ratios, as SciPy computes it', (t) => {
  const sessions = scaledSessions([1.1, 1.3, 1.2, 1.05], 10, 'ratio-t');
  const r = pairedComparison(sessions, 'ratio', { resamples: 200, confidence: 0.95, seed: 's' });
  const logs = r.perSession.map((s) => Math.log(s.observed));
  const script = `
import json, sys, numpy as np
from scipy import stats
x = np.array(json.load(sys.stdin))
lo, hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
print(json.dumps([float(np.exp(lo)), float(np.exp(hi))]))
`;
  const [low, high] = JSON.parse(execFileSync(PYTHON, ['-c', script], { input: JSON.stringify(logs) }).toString()) as number[];
  t.true(Math.abs(r.sessionLow! - low!) < 1e-9, `${r.sessionLow} vs ${low}`);
  t.true(Math.abs(r.sessionHigh! - high!) < 1e-9, `${r.sessionHigh} vs ${high}`);
});

test('a ratio held in every session is detected and its directions are taken against 1', (t) => {
  const r = pairedComparison(scaledSessions([1.3, 1.28, 1.32], 10, 'held'), 'ratio', { resamples: 1000, confidence: 0.95, seed: 'h' });
  t.true(r.low! > 1);
  t.is(r.sameDirection, 3);
  t.true(r.perSession.every((s) => s.direction === 1));
  t.deepEqual(r.findings, { detected: true, sessionsDisagreeInSize: false, direction: 'higher', sizeUncertain: false });
});

test('sessions that agree in direction but not in size are not detected: their direction holds and their size is uncertain', (t) => {
  // Ratios 1.05, 1.2, 1.6: the two-level bootstrap over three sessions excludes 1, the t interval over them does not.
  const r = pairedComparison(scaledSessions([1.05, 1.2, 1.6], 20, 'disagree'), 'ratio', { resamples: 2000, confidence: 0.95, seed: 'd' });
  t.true(r.low! > 1, `two-level [${r.low}, ${r.high}]`);
  t.true(r.sessionLow! < 1, `between-session [${r.sessionLow}, ${r.sessionHigh}]`);
  t.deepEqual(r.findings, { detected: false, sessionsDisagreeInSize: true, direction: 'higher', sizeUncertain: true });
});

test('a difference with one session has no between-session interval and rests on the two-level interval alone', (t) => {
  const r = pairedComparison(scaledSessions([1.3], 10, 'one'), 'difference', { resamples: 500, confidence: 0.95, seed: 'o' });
  t.is(r.sessionLow, null);
  t.false(r.betweenSessionEstimated);
  t.true(r.low! > 0);
  t.true(r.findings.detected);
});
