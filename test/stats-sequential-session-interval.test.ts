import test from 'ava';
import { clopperPearson } from '../harness/stats/clopper-pearson.js';
import { seededRandom } from '../harness/stats/seeded-random.js';
import { sessionTInterval } from '../harness/stats/session-t-interval.js';
import { defaultSequentialPlan, planBoundaries, sequentialCriticalT, sequentialSessionInterval } from '../harness/stats/sequential-session-interval.js';
import { studentTQuantile } from '../harness/stats/student-t.js';

const plan = defaultSequentialPlan;

function nullPaths(seed: string, n: number, sd: number): number[][] {
  const random = seededRandom(seed);
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Array.from({ length: n }, () => Array.from({ length: plan.maxSessions }, () => 3 + sd * gauss()));
}

test('looking after every session from 3 to 12, the sequential interval excludes the true mean in at most 5% of seeded null runs (made-up data), where the fixed 95% t interval does in well over 5%', (t) => {
  // Independent of the calibration's own seed and scale: mean 3, sd 0.2.
  const paths = nullPaths('test|sequential-null', 3000, 0.2);
  let sequential = 0;
  let naive = 0;
  for (const xs of paths) {
    const centred = xs.map((x) => x - 3);
    let s = false;
    let f = false;
    for (let k = plan.minSessions; k <= plan.maxSessions; k++) {
      const r = sequentialSessionInterval(centred.slice(0, k), plan)!;
      if (r.low > 0 || r.high < 0) s = true;
      const fixed = sessionTInterval(centred.slice(0, k), 0.95)!;
      if (fixed.low > 0 || fixed.high < 0) f = true;
    }
    if (s) sequential++;
    if (f) naive++;
  }
  const seq = clopperPearson(sequential, paths.length);
  const fix = clopperPearson(naive, paths.length);
  t.true(seq.low <= 0.05, `sequential: ${sequential} of ${paths.length}, [${seq.low}, ${seq.high}]`);
  t.true(fix.low > 0.1, `fixed interval at every look: ${naive} of ${paths.length}`);
});

test("the sequential interval is the mean ± the look's t boundary · sd / √k, the boundary Student's t at the look's nominal level", (t) => {
  const xs = [0.1, 0.14, 0.08, 0.12, 0.11];
  const r = sequentialSessionInterval(xs, plan)!;
  const mean = xs.reduce((s, v) => s + v, 0) / 5;
  const sd = Math.sqrt(xs.reduce((s, v) => s + (v - mean) ** 2, 0) / 4);
  const c = sequentialCriticalT(plan, 5)!;
  t.true(Math.abs(c.criticalT - studentTQuantile(1 - c.nominalAlpha / 2, 4)) < 1e-9);
  t.true(Math.abs(r.high - mean - (c.criticalT * sd) / Math.sqrt(5)) < 1e-12);
  t.true(Math.abs(r.mean - mean) < 1e-12);
  t.false(r.lastLook);
});

test('the t boundaries fall from look to look and are wider than the fixed 95% t at every look', (t) => {
  const b = planBoundaries(plan);
  for (let i = 1; i < b.criticalT.length; i++) t.true(b.criticalT[i]! < b.criticalT[i - 1]!);
  b.criticalT.forEach((c, i) => t.true(c > studentTQuantile(0.975, plan.minSessions + i - 1)));
  t.true(b.spendingAlpha <= plan.alpha);
});

test('before the first look and after the last there is no sequential interval', (t) => {
  t.is(sequentialSessionInterval([0.1, 0.2], plan), null);
  t.is(
    sequentialSessionInterval(
      Array.from({ length: 13 }, (_, i) => i),
      plan,
    ),
    null,
  );
  t.true(
    sequentialSessionInterval(
      Array.from({ length: 12 }, (_, i) => i),
      plan,
    )!.lastLook,
  );
});
