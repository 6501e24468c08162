import test from 'ava';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../harness/stats/seeded-random.js';
import { nestedVarianceComponents, type NestedValue } from '../harness/stats/nested-variance-components.js';
import { varianceComponents } from '../harness/stats/variance-components.js';
import { tempDir } from './helpers/cli.js';

const RSCRIPT = '/usr/bin/Rscript';
const LEVELS = ['hosts', 'runs', 'sessions'];

function normalOf(seed: string): () => number {
  const random = seededRandom(seed);
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** hosts × runs × sessions × rounds with the given sds; every 7th value dropped when unbalanced. */
function design(sd: [number, number, number, number], shape: [number, number, number, number], seed: string, unbalanced: boolean): NestedValue[] {
  const normal = normalOf(seed);
  const out: NestedValue[] = [];
  let i = 0;
  for (let h = 1; h <= shape[0]; h++) {
    const hOff = sd[0] * normal();
    for (let r = 1; r <= shape[1]; r++) {
      const rOff = sd[1] * normal();
      for (let s = 1; s <= shape[2]; s++) {
        const sOff = sd[2] * normal();
        for (let k = 1; k <= shape[3]; k++) {
          const value = 100 + hOff + rOff + sOff + sd[3] * normal();
          if (!(unbalanced && i++ % 7 === 3)) out.push({ units: [`h${h}`, `r${r}`, `s${s}`], value });
        }
      }
    }
  }
  return out;
}

function hasR(packages: string): boolean {
  try {
    execFileSync(RSCRIPT, ['-e', `suppressMessages({${packages}})`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function runR(values: readonly NestedValue[], script: string): number[] {
  const dir = tempDir('nested-vc-');
  try {
    const csv = join(dir, 'values.csv');
    writeFileSync(csv, 'host,run,session,value\n' + values.map((v) => `${v.units.join(',')},${v.value}`).join('\n') + '\n');
    return execFileSync(RSCRIPT, ['-e', `d <- read.csv('${csv}'); ${script}`])
      .toString()
      .trim()
      .split(/\s+/)
      .map(Number);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('nested REML variance components agree with lme4 lmer on unbalanced hosts, runs, sessions and rounds', (t) => {
  t.true(hasR('library(lme4)'), `${RSCRIPT} with lme4 is missing: install Debian r-cran-lme4 (./setup.sh does)`);
  const values = design([6, 4, 3, 5], [4, 3, 3, 8], 'lmer2', true);
  const r = runR(
    values,
    `suppressMessages(library(lme4)); f <- lmer(value ~ 1 + (1 | host/run/session), data = d, REML = TRUE,
       control = lmerControl(optimizer = 'bobyqa', optCtrl = list(rhoend = 1e-12, maxfun = 1e5)));
     v <- as.data.frame(VarCorr(f)); g <- function(n) v$vcov[v$grp == n];
     cat(sprintf('%.12g', c(g('host'), g('run:host'), g('session:(run:host)'), g('Residual'), fixef(f)[1])))`,
  );
  const c = nestedVarianceComponents(values, LEVELS, 'rounds', 0.95);
  const ours = [...c.components.map((x) => x.variance!), c.mean];
  ours.forEach((v, i) =>
    t.true(Math.abs(v - r[i]!) <= 1e-4 * Math.abs(r[i]!) + 1e-8, `${['hosts', 'runs', 'sessions', 'rounds', 'mean'][i]}: ${v} vs lmer ${r[i]}`),
  );
});

test('nested variance intervals agree with nlme intervals() (Wald on the log sds)', (t) => {
  t.true(hasR('library(nlme)'), `${RSCRIPT} with nlme is missing: install Debian r-base-core's r-cran-nlme (./setup.sh does)`);
  const values = design([6, 4, 3, 5], [4, 3, 3, 8], 'nlme', true);
  const r = runR(
    values,
    `suppressMessages(library(nlme)); f <- lme(value ~ 1, random = ~ 1 | host/run/session, data = d, method = 'REML',
       control = lmeControl(msMaxIter = 500, msTol = 1e-12, tolerance = 1e-10, niterEM = 200));
     i <- intervals(f, which = 'var-cov'); sds <- rbind(i$reStruct$host, i$reStruct$run, i$reStruct$session, i$sigma);
     cat(sprintf('%.12g', t(as.matrix(sds)^2)))`,
  );
  const c = nestedVarianceComponents(values, LEVELS, 'rounds', 0.95);
  c.components.forEach((x, i) => {
    const [low, est, high] = [r[3 * i]!, r[3 * i + 1]!, r[3 * i + 2]!];
    t.true(Math.abs(x.variance! - est) <= 1e-3 * est, `${x.level} estimate ${x.variance} vs nlme ${est}`);
    t.true(Math.abs(x.low! - low) <= 0.02 * low, `${x.level} low ${x.low} vs nlme ${low}`);
    t.true(Math.abs(x.high! - high) <= 0.02 * high, `${x.level} high ${x.high} vs nlme ${high}`);
  });
});

test('balanced two-level REML equals the ANOVA estimates when both are positive', (t) => {
  const values = design([0, 0, 8, 5], [1, 1, 6, 10], 'balanced', false);
  const anova = varianceComponents(values.map((v) => ({ session: Number(v.units[2]!.slice(1)), round: 0, value: v.value })));
  const c = nestedVarianceComponents(values, LEVELS, 'rounds', 0.95);
  t.true(anova.betweenVar! > 0);
  t.true(Math.abs(c.components[2]!.variance! - anova.betweenVar!) < 1e-6 * anova.betweenVar!, `${c.components[2]!.variance} vs ${anova.betweenVar}`);
  t.true(Math.abs(c.components[3]!.variance! - anova.withinVar!) < 1e-6 * anova.withinVar!);
});

test('one host and one run per host leave the host and run levels not estimable', (t) => {
  const c = nestedVarianceComponents(design([5, 5, 3, 5], [1, 1, 4, 6], 'one-host', false), LEVELS, 'rounds', 0.95);
  t.deepEqual(
    c.components.map((x) => x.variance === null),
    [true, true, false, false],
  );
});

test('a level with no spread is estimated at 0 with an open upper bound', (t) => {
  // runs share one offset: their component is at the boundary
  const values = design([0, 0, 6, 4], [1, 4, 3, 10], 'no-runs', false).map((v) => ({ ...v }));
  const byRun = new Map<string, number[]>();
  for (const v of values) (byRun.get(v.units[1]!) ?? byRun.set(v.units[1]!, []).get(v.units[1]!)!).push(v.value);
  const runMean = new Map([...byRun].map(([k, vs]) => [k, vs.reduce((s, x) => s + x, 0) / vs.length]));
  const centred = values.map((v) => ({ ...v, value: v.value - runMean.get(v.units[1]!)! }));
  const c = nestedVarianceComponents(centred, LEVELS, 'rounds', 0.95);
  t.is(c.components[1]!.variance! < 1e-6 * c.components[3]!.variance!, true);
  t.is(c.components[1]!.low, 0);
  t.is(c.components[1]!.high, null);
});
