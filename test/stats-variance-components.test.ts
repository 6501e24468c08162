import test from 'ava';
import { execFileSync } from 'node:child_process';
import { seededRandom } from '../harness/stats/seeded-random.js';
import { sessionSpread, varianceComponents, type CellValue } from '../harness/stats/variance-components.js';

const cell = (groups: number[][]): CellValue[] => groups.flatMap((g, s) => g.map((value, r) => ({ session: s + 1, round: r + 1, value })));

test('balanced variance components equal the hand-computed ANOVA estimates', (t) => {
  // session means 2, 6, 10; grand mean 6; MSB = 2 * 32 / 2 = 32; MSW = 6 / 3 = 2; between = (32 - 2) / 2 = 15
  const c = varianceComponents(
    cell([
      [1, 3],
      [5, 7],
      [9, 11],
    ]),
  );
  t.is(c.sessions, 3);
  t.is(c.values, 6);
  t.is(c.mean, 6);
  t.is(c.withinVar, 2);
  t.is(c.betweenVar, 15);
  t.is(c.betweenShare, 15 / 17);
});

test('a between-session estimate below zero is reported as no session effect', (t) => {
  // session means equal, spread only within sessions
  const c = varianceComponents(
    cell([
      [1, 9],
      [2, 8],
      [3, 7],
    ]),
  );
  t.is(c.betweenVar, 0);
  t.is(c.dominant, 'rounds');
});

test('one session gives no between-session estimate and no dominant level', (t) => {
  const c = varianceComponents(cell([[1, 2, 3]]));
  t.is(c.betweenVar, null);
  t.is(c.withinVar, 1);
  t.is(c.dominant, null);
});

function shifted(sessionSd: number, roundSd: number, sessions: number, rounds: number, seed: string): CellValue[] {
  const random = seededRandom(seed);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const out: CellValue[] = [];
  for (let s = 1; s <= sessions; s++) {
    const offset = sessionSd * normal();
    for (let r = 1; r <= rounds; r++) out.push({ session: s, round: r, value: 1000 + offset + roundSd * normal() });
  }
  return out;
}

test('sessions dominate when session offsets are large against round noise', (t) => {
  t.is(varianceComponents(shifted(200, 5, 4, 10, 'big-sessions')).dominant, 'sessions');
});

test('rounds dominate when session offsets are small against round noise', (t) => {
  t.is(varianceComponents(shifted(1, 100, 4, 10, 'small-sessions')).dominant, 'rounds');
});

test('session medians and the spread are the largest over the smallest session median', (t) => {
  const s = sessionSpread(cell([[100, 110, 120], [200, 210], [150]]));
  t.deepEqual(
    s.medians.map((m) => m.median),
    [110, 205, 150],
  );
  t.is(s.spreadRatio, 205 / 110);
});

const RSCRIPT = '/usr/bin/Rscript';

test('unbalanced variance components agree with R anova() mean squares', (t) => {
  let hasR = true;
  try {
    execFileSync(RSCRIPT, ['-e', '1'], { stdio: 'ignore' });
  } catch {
    hasR = false;
  }
  t.true(hasR, `${RSCRIPT} is missing: install Debian r-base-core (./setup.sh does)`);
  const values = shifted(30, 20, 5, 12, 'r').filter((v, i) => i % 7 !== 3); // unequal rounds per session
  const csv = 'session,value\n' + values.map((v) => `${v.session},${v.value}`).join('\n') + '\n';
  const script = `d <- read.csv(file('stdin')); f <- factor(d$session); a <- anova(lm(value ~ f, data = d));
msb <- a[1, 3]; msw <- a[2, 3]; N <- nrow(d); ns <- as.numeric(table(f)); K <- length(ns);
n0 <- (N - sum(ns^2) / N) / (K - 1); cat(sprintf('%.12g %.12g', max(0, (msb - msw) / n0), msw))`;
  const [between, within] = execFileSync(RSCRIPT, ['-e', script], { input: csv }).toString().trim().split(' ').map(Number) as [number, number];
  const c = varianceComponents(values);
  t.true(Math.abs(c.betweenVar! - between) < 1e-6 * between, `${c.betweenVar} vs ${between}`);
  t.true(Math.abs(c.withinVar! - within) < 1e-6 * within, `${c.withinVar} vs ${within}`);
});
