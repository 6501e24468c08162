import test from 'ava';
import { alphaSpent, spendingBoundaries, type SpendingFunction } from '../harness/stats/alpha-spending.js';

// Five equally spaced looks, two-sided alpha 0.05, computed independently in
// SciPy 1.17.1: look by look, brentq for the c_k with
//   1 - multivariate_normal(zeros, cov).cdf(c, lower_limit=-c) = alpha(t_k),
//   cov[i][j] = sqrt(min(t_i, t_j) / max(t_i, t_j)),
// c_1..c_{k-1} fixed from the earlier looks (Genz's integration, not the
// recursive grid integration of alpha-spending.ts).
const scipy: Record<string, { spending: SpendingFunction; z: number[] }> = {
  'obrien-fleming': { spending: { kind: 'obrien-fleming' }, z: [4.3826, 3.0997, 2.5534, 2.2539, 2.0635] },
  pocock: { spending: { kind: 'pocock' }, z: [2.438, 2.4268, 2.4102, 2.3967, 2.386] },
  'power rho 1': { spending: { kind: 'power', rho: 1 }, z: [2.5758, 2.492, 2.4108, 2.3391, 2.2755] },
};

for (const [name, want] of Object.entries(scipy)) {
  test(`the ${name} spending boundaries agree with SciPy's multivariate normal to 1e-3`, (t) => {
    const got = spendingBoundaries([0.2, 0.4, 0.6, 0.8, 1], 0.05, want.spending);
    got.forEach((b, i) => t.true(Math.abs(b.z - want.z[i]!) < 1e-3, `look ${i + 1}: ${b.z} against ${want.z[i]}`));
    t.true(Math.abs(got[4]!.cumulativeAlpha - 0.05) < 1e-4, `all of alpha is spent by the last look: ${got[4]!.cumulativeAlpha}`);
  });
}

test('every spending function spends nothing at 0 and alpha at information fraction 1', (t) => {
  for (const s of Object.values(scipy)) {
    t.is(alphaSpent(s.spending, 0.05, 0), 0);
    t.true(Math.abs(alphaSpent(s.spending, 0.05, 1) - 0.05) < 1e-9);
  }
});
