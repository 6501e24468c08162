// The between-class spread of a Ready ratio (analysis/cross-class.ts, issue
// 43) against R's lme4 on the same log ratios: the archive's two same-key
// runs on two host classes (the published run of 2026-12-05 and the shared
// replicate of 2026-12-06, PTI on). The pooled sd² = Σ d² / (2m) is the
// residual variance of ln(a/b) around each comparison's mean, which is what
// lmer(y ~ 1 + (1 | comparison), REML) estimates on balanced data.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../harness/process/project-root.js';
import { crossClass, publishedRunOf, type PublishedRun } from '../harness/analysis/cross-class.js';
import { tempDir } from './helpers/cli.js';

const archive = join(projectRoot(), 'reports', 'lazy-startup', 'runs');

function archived(id: string): PublishedRun {
  const record = JSON.parse(readFileSync(join(archive, id, 'run.json'), 'utf8')) as {
    stages: Record<string, { key: string }>;
    canary: { pieces: { piece: string; medianMs: number | null }[] };
  };
  const read = (f: string): string => readFileSync(join(archive, id, f), 'utf8');
  const canary = Object.fromEntries(record.canary.pieces.map((p) => [p.piece, p.medianMs]));
  return publishedRunOf(id, record.stages['sample']!.key, canary, read('statistics.csv'), read('differences.csv'));
}

test('the between-class spread equals lme4 REML residual variance of the log ratios of the two same-key classes', (t) => {
  const a = archived('2026-12-05-f6b8e493f9fe');
  const b = archived('2026-12-06-1b539537c7f0');
  t.is(a.sampleKey, b.sampleKey, 'the two runs are replicates by key');
  // this run: a third class (cpu ×3) of another key, so only the archived pair measures the spread
  const own = {
    sampleKey: 'another-key',
    canary: Object.fromEntries(Object.entries(a.canary!).map(([k, v]) => [k, k === 'cpu' ? v! * 3 : v])),
    p50: a.p50,
    direction: a.direction,
  };
  const result = crossClass(own, [a, b]);
  t.truthy(result?.between);
  const rows: string[] = [];
  for (const key of a.direction.keys()) {
    const [cohort, state, x, y] = key.split('|') as [string, string, string, string];
    const ratio = (r: PublishedRun): number | null => {
      const px = r.p50.get(`${cohort}|${x}|${state}`);
      const py = r.p50.get(`${cohort}|${y}|${state}`);
      return px && py ? Math.log(px / py) : null;
    };
    const [ra, rb] = [ratio(a), ratio(b)];
    if (ra === null || rb === null || !b.direction.has(key)) continue;
    rows.push(`${key},A,${ra}`, `${key},B,${rb}`);
  }
  t.is(rows.length / 2, result!.between!.df, 'one d per comparison both classes have');
  const dir = tempDir('cross-class-lme4-');
  try {
    const csv = join(dir, 'y.csv');
    writeFileSync(csv, 'comparison,class,y\n' + rows.join('\n') + '\n');
    const out = execFileSync('/usr/bin/Rscript', [
      '-e',
      `suppressMessages(library(lme4)); d <- read.csv('${csv}'); f <- lmer(y ~ 1 + (1 | comparison), data = d, REML = TRUE); cat(sprintf('%.12g', sigma(f)^2))`,
    ]).toString();
    const r = Number(out.trim());
    const ours = result!.between!.logSd ** 2;
    t.true(Math.abs(r - ours) <= 1e-5 * ours, `lme4 ${r}, ours ${ours}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
