// The two-part verdict of `pipeline compare` (issue 20): held in direction and
// held in magnitude, the latter by the tolerance of magnitude-tolerance.ts
// (each cell's P50 ratio within the baseline's between-session spread, at
// least ×1.05). Made-up report folders (our own logic); a reproduction file
// names both runs by run digest and date.
import test from 'ava';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareReports } from '../harness/compare/compare-reports.js';
import { readPublishedReport } from '../harness/compare/read-published-report.js';
import { toleranceOf } from '../harness/compare/magnitude-tolerance.js';
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

test('a conclusion lost in direction while both cells stayed within their tolerance is held in magnitude only', (t) => {
  const candidate = folder('cand', { ...baseline, value: 40, detected: false, p50: { docker: 4150, lazy: 185 } });
  const r = compareReports(readPublishedReport(folder('base', baseline)), readPublishedReport(candidate));
  const c = r.conclusions[0]!;
  t.is(c.status, 'lost');
  t.is(c.magnitude, 'held', 'docker ×1.04 within ×1.10; lazy ×1.03 within the floor ×1.05 of its spread 1.01');
  t.like(r, { held: 0, heldInMagnitude: 1, heldInBoth: 0 });
});

test('the tolerance is the baseline spread, never below ×1.05, and a cell just past it is outside', (t) => {
  t.is(toleranceOf(1.3), 1.3);
  t.is(toleranceOf(1.01), 1.05);
  t.is(toleranceOf(null), null);
  const candidate = folder('cand', { ...baseline, p50: { docker: 4000, lazy: 180 * 1.06 } });
  const c = compareReports(readPublishedReport(folder('base', baseline)), readPublishedReport(candidate)).conclusions[0]!;
  t.is(c.magnitude, 'not-held');
  t.deepEqual(c.movedCells, ['lazy ×1.06 (tolerance ×1.05)']);
});

test('without sessions.csv in the baseline the magnitude is not estimated', (t) => {
  const r = compareReports(readPublishedReport(folder('base', { ...baseline, spread: null })), readPublishedReport(folder('cand', baseline)));
  t.is(r.conclusions[0]!.magnitude, 'not-estimated');
  t.is(r.cells[0]!.tolerance, null);
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

test('reproduction.md names both runs by run digest and date, and states the tolerance rule', async (t) => {
  const base = folder('base', baseline);
  const cand = folder('cand', { ...baseline, value: 5820, p50: { docker: 6000, lazy: 180 } });
  const b = archive(base, '2026-11-30T10:00:00.000Z');
  const c = archive(cand, '2026-12-01T12:30:00.000Z');
  const out = tempDir();
  const r = await runCli(['compare', base, cand, '--write', out], projectRoot);
  t.is(r.code, 0, r.stderr);
  const md = readFileSync(join(out, 'reproduction.md'), 'utf8');
  t.true(
    md.includes(`Baseline: \`${base}\`, run digest \`${runDigest(b)}\` (archived as \`${runId(b)}\`), measured 2026-11-30T10:00:00.000Z.`),
    md.split('\n')[2],
  );
  t.true(md.includes(`Candidate: \`${cand}\`, run digest \`${runDigest(c)}\` (archived as \`${runId(c)}\`), measured 2026-12-01T12:30:00.000Z.`));
  t.regex(md, /held in magnitude when the P50 ratio candidate \/ baseline of each of its two cells lies within \[1\/T, T\], T = max\(S, 1\.05\)/);
  t.regex(md, /\| shell cold ready: docker − lazy \| docker > lazy \| docker > lazy \| held \| not held: docker ×1\.50 \(tolerance ×1\.10\) \|/);
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
  t.true(md.includes(`Baseline: \`${base}\`, no archived run (run digest unknown), measured 2026-12-01T01:14:10.875Z.`), md.split('\n')[2]);
});
