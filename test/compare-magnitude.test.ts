// The two-part verdict of `pipeline compare` (issues 20, 28): held in direction
// and held in magnitude, the latter judged on the effect after the common
// factor (magnitude-tolerance.ts: a cell's tolerance is the baseline's
// between-session spread from 3 sessions on, at least the between-run figure
// ×1.09). Made-up report folders (our own logic); a reproduction file names
// both runs by run digest and date.
import test from 'ava';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareReports, magnitudeLabel } from '../harness/compare/compare-reports.js';
import { readPublishedReport } from '../harness/compare/read-published-report.js';
import { betweenRunTolerance, effectMagnitude, toleranceOf } from '../harness/compare/magnitude-tolerance.js';
import { runDigest, runId } from '../harness/history/archive-run.js';
import type { RunRecord } from '../harness/history/run-record.js';
import { projectRoot, runCli, tempDir } from './helpers/cli.js';

interface Made {
  /** docker − lazy, cold ready */
  value: number;
  detected: boolean;
  p50: { docker: number; lazy: number };
  /** cell_session_spread per path; null: no sessions.csv */
  spread: { docker: number; lazy: number } | null;
}

function folder(name: string, m: Made): string {
  const dir = join(tempDir('benchgraph-magnitude-'), name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'differences.csv'),
    `kind,cohort,state,metric,a,b,value,low,high,detected\nmedian_difference,shell,cold,ready,docker,lazy,${m.value},${m.value - 50},${m.value + 50},${m.detected}\n`,
  );
  writeFileSync(
    join(dir, 'statistics.csv'),
    `cohort,path,state,metric,unit,p50\nshell,docker,cold,ready,ms,${m.p50.docker}\nshell,lazy,cold,ready,ms,${m.p50.lazy}\n`,
  );
  if (m.spread) {
    const rows = (['docker', 'lazy'] as const).flatMap((path) =>
      [1, 2, 3].map((session) => `shell,${path},cold,ready,${session},10,${m.p50[path]},${m.spread![path]},rounds`),
    );
    writeFileSync(join(dir, 'sessions.csv'), ['cohort,path,state,metric,session,n,p50_ms,cell_session_spread,dominant_variance', ...rows].join('\n') + '\n');
  }
  return dir;
}

const baseline: Made = { value: 3820, detected: true, p50: { docker: 4000, lazy: 180 }, spread: { docker: 1.1, lazy: 1.01 } };

test('a conclusion whose direction held while a cell moved beyond the baseline spread is held in direction, not in magnitude', (t) => {
  const candidate = folder('cand', { ...baseline, value: 5820, p50: { docker: 6000, lazy: 180 } });
  const r = compareReports(readPublishedReport(folder('base', baseline)), readPublishedReport(candidate));
  const c = r.conclusions[0]!;
  t.is(c.status, 'held');
  t.is(c.magnitude, 'not-held');
  t.deepEqual(c.movedCells, ['docker ×1.50 (tolerance ×1.10)']);
  t.like(r, { held: 1, heldInMagnitude: 0, heldInBoth: 0 });
});

test('a conclusion lost in direction whose effect stayed within its tolerance is held in magnitude only', (t) => {
  const small: Made = { value: 60, detected: true, p50: { docker: 240, lazy: 180 }, spread: { docker: 1.1, lazy: 1.01 } };
  const candidate = folder('cand', { ...small, value: 40, detected: false, p50: { docker: 225, lazy: 185 } });
  const r = compareReports(readPublishedReport(folder('base', small)), readPublishedReport(candidate));
  const c = r.conclusions[0]!;
  t.is(c.status, 'lost');
  t.is(c.magnitude, 'held', '40 against 60 ± √((240 ln 1.10)² + (180 ln 1.087)²) = ± 27');
  t.like(r, { held: 0, heldInMagnitude: 1, heldInBoth: 0 });
});

test('the tolerance is the baseline spread, never below the between-run figure, and a cell just past it is outside while its conclusion’s effect holds', (t) => {
  t.deepEqual(toleranceOf(1.3, 3), { factor: 1.3, source: 'sessions' });
  t.deepEqual(toleranceOf(1.01, 3), { factor: betweenRunTolerance, source: 'between-run' });
  t.deepEqual(toleranceOf(null), { factor: betweenRunTolerance, source: 'between-run' });
  t.true(Math.abs(betweenRunTolerance - Math.exp(1.959964 * Math.SQRT2 * 0.03)) < 1e-12);
  const candidate = folder('cand', { ...baseline, p50: { docker: 4000, lazy: 180 * 1.1 } });
  const r = compareReports(readPublishedReport(folder('base', baseline)), readPublishedReport(candidate));
  t.is(r.cells.find((c) => c.path === 'lazy')!.magnitude, 'outside');
  t.deepEqual(r.conclusions[0]!.movedCells, ['lazy ×1.10 (tolerance ×1.09)']);
  t.is(r.conclusions[0]!.magnitude, 'held', 'the difference 3820 did not move');
});

test('without sessions.csv in the baseline the tolerance is the between-run figure', (t) => {
  const r = compareReports(readPublishedReport(folder('base', { ...baseline, spread: null })), readPublishedReport(folder('cand', baseline)));
  t.is(r.conclusions[0]!.magnitude, 'held');
  t.like(r.cells[0], { tolerance: betweenRunTolerance, toleranceSource: 'between-run' });
});

/** Files the folder's statistics as an archived run under runs/<date>-<digest>/, as `pipeline run` does. */
function archive(dir: string, time: string): RunRecord {
  const record = { format: 'benchgraph-run/1', experiment: 'e', time, label: null, source: 'published', stages: null, sessions: [], files: {} } as RunRecord;
  const run = join(dir, 'runs', runId(record));
  mkdirSync(run, { recursive: true });
  writeFileSync(join(run, 'run.json'), JSON.stringify(record, null, 2));
  cpSync(join(dir, 'statistics.csv'), join(run, 'statistics.csv'));
  return record;
}

test('reproduction.md names both runs by archive name, run digest and date, never by the report folder, and states the tolerance rule', async (t) => {
  const base = folder('base', baseline);
  const cand = folder('cand', { ...baseline, value: 5820, p50: { docker: 6000, lazy: 180 } });
  const b = archive(base, '2026-11-30T10:00:00.000Z');
  const c = archive(cand, '2026-12-01T12:30:00.000Z');
  const out = tempDir();
  const r = await runCli(['compare', base, cand, '--write', out], projectRoot);
  t.is(r.code, 0, r.stderr);
  const md = readFileSync(join(out, 'reproduction.md'), 'utf8');
  t.true(md.includes(`Baseline: run \`${runId(b)}\`, digest \`${runDigest(b)}\`, measured 2026-11-30T10:00:00.000Z.`), md.split('\n')[2]);
  t.true(md.includes(`Candidate: run \`${runId(c)}\`, digest \`${runDigest(c)}\`, measured 2026-12-01T12:30:00.000Z.`));
  t.false(md.includes(base) || md.includes(cand), 'a run is never named by the folder it was read from');
  t.regex(md, /Magnitude is judged on the effect, after the factor every cell shares/);
  t.regex(md, /T = max\(S, 1\.087\)/);
  t.regex(
    md,
    /\| shell cold ready: docker − lazy \| docker > lazy \| docker > lazy \| held \| not held: difference 5820\.0 after the common factor, against 3820\.0 ± \d+\.\d; docker ×1\.50 \(tolerance ×1\.10\) \|/,
  );
});

test('a folder with no archived run is named as such, with the date of its formal launches', async (t) => {
  const base = folder('base', baseline);
  writeFileSync(
    join(base, 'provenance.csv'),
    'kind,name,version,sha256,detail\nmeasured,formal launches,2026-12-01T00:35:54.035Z..2026-12-01T01:14:10.875Z,,\n',
  );
  const out = tempDir();
  await runCli(['compare', base, folder('cand', baseline), '--write', out], projectRoot);
  const md = readFileSync(join(out, 'reproduction.md'), 'utf8');
  t.true(md.includes(`Baseline: \`${base}\` (no archived run; run digest unknown), measured 2026-12-01T01:14:10.875Z.`), md.split('\n')[2]);
});

test('a report’s rerun interval is the magnitude rule where it has one: the baseline’s for the candidate’s effect after the factor, else the candidate’s for the baseline’s carried by it, else the tolerance', (t) => {
  const cells = { a: { p50: 1000, tolerance: 1.05 }, b: { p50: 500, tolerance: 1.05 } };
  const base = { kind: 'median_difference' as const, baselineValue: 500, a: cells.a, b: cells.b, factor: 1.2 };
  // 672 / 1.2 = 560: inside the baseline's rerun interval [420, 580], though 60 from 500 is beyond the tolerance's ± 54.5
  const inside = effectMagnitude({ ...base, candidateValue: 672, baselineRerun: { low: 420, high: 580 } });
  t.like(inside, { magnitude: 'held', rule: 'baseline rerun interval', adjusted: 560 });
  t.like(effectMagnitude({ ...base, candidateValue: 672 }), { magnitude: 'not-held', rule: 'tolerance' });
  const outside = effectMagnitude({ ...base, candidateValue: 720, baselineRerun: { low: 420, high: 580 } });
  t.like(outside, { magnitude: 'not-held', rule: 'baseline rerun interval' });
  t.is(
    magnitudeLabel({
      ...outside,
      kind: 'median_difference',
      movedCells: [],
      allowed: null,
      baselineValue: 500,
      adjustedValue: outside.adjusted,
      magnitudeRule: outside.rule,
      rerunInterval: outside.interval,
    }),
    "not held: difference 600.0 after the common factor outside the baseline's rerun interval [420.0, 580.0]",
  );
  // only the candidate has one: 500 × 1.2 = 600 against the candidate's [560, 700]
  t.like(effectMagnitude({ ...base, candidateValue: 620, candidateRerun: { low: 560, high: 700 } }), {
    magnitude: 'held',
    rule: 'candidate rerun interval',
    adjusted: 600,
  });
  // a ratio is judged as it is: the factor cancels in it
  t.like(effectMagnitude({ ...base, kind: 'median_ratio', baselineValue: 2, candidateValue: 2.3, baselineRerun: { low: 1.7, high: 2.2 } }), {
    magnitude: 'not-held',
    adjusted: 2.3,
  });
});
