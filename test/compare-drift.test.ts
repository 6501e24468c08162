// `pipeline compare` against run-to-run drift (issue 28): a factor every cell
// shares is estimated once and said once, magnitudes are judged on the effect
// after it, a path that moved alone is still found, and a tolerance is never
// taken from fewer than 3 sessions without saying so. Made-up report folders
// (our own logic); the median interval is checked against SciPy.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareReports } from '../harness/compare/compare-reports.js';
import { readPublishedReport } from '../harness/compare/read-published-report.js';
import { medianInterval } from '../harness/stats/median-interval.js';
import { seededRandom } from '../harness/stats/seeded-random.js';
import { projectRoot, runCli, tempDir } from './helpers/cli.js';

const PATHS: Record<string, number> = { docker: 4000, 'oci-full': 2300, lazy: 180, 'gvisor-full': 2600, 'gvisor-lazy': 900 };

interface Made {
  /** Each cell's P50 (cohort path state metric) in ms. */
  p50: Record<string, number>;
  /** Sessions per cell and each cell's spread (largest / smallest session median). */
  sessions: number;
  spread: (cell: string) => number;
}

/** The cells of two cohorts × five paths × cold/warm, ready; each run's P50 scaled by `scale(cell)` and jittered ±1% (seeded). */
function cells(seed: string, scale: (cell: string) => number): Record<string, number> {
  const random = seededRandom(seed);
  const out: Record<string, number> = {};
  for (const cohort of ['shell', 'numpy'])
    for (const [path, base] of Object.entries(PATHS))
      for (const state of ['cold', 'warm']) {
        const cell = `${cohort} ${path} ${state} ready`;
        out[cell] = base * (cohort === 'numpy' ? 3 : 1) * (state === 'warm' ? 0.5 : 1) * scale(cell) * (1 + 0.02 * (random() - 0.5));
      }
  return out;
}

/** A report folder: statistics.csv, sessions.csv and a differences.csv with every path against docker, detected, value from the P50s. */
function folder(name: string, m: Made): string {
  const dir = join(tempDir('benchgraph-compare-drift-'), name);
  mkdirSync(dir);
  const stats = ['cohort,path,state,metric,unit,p50'];
  const sessions = ['cohort,path,state,metric,session,n,p50_ms,cell_session_spread,dominant_variance'];
  for (const [cell, p50] of Object.entries(m.p50)) {
    const [cohort, path, state, metric] = cell.split(' ');
    stats.push(`${cohort},${path},${state},${metric},ms,${p50.toFixed(3)}`);
    for (let s = 1; s <= m.sessions; s++) sessions.push(`${cohort},${path},${state},${metric},${s},10,${p50.toFixed(3)},${m.spread(cell)},rounds`);
  }
  const diffs = ['kind,cohort,state,metric,a,b,value,low,high,detected'];
  for (const cohort of ['shell', 'numpy'])
    for (const state of ['cold', 'warm'])
      for (const path of Object.keys(PATHS).filter((p) => p !== 'docker')) {
        const v = m.p50[`${cohort} docker ${state} ready`]! - m.p50[`${cohort} ${path} ${state} ready`]!;
        diffs.push(`median_difference,${cohort},${state},ready,docker,${path},${v.toFixed(3)},${(v * 0.98).toFixed(3)},${(v * 1.02).toFixed(3)},true`);
      }
  writeFileSync(join(dir, 'statistics.csv'), stats.join('\n') + '\n');
  writeFileSync(join(dir, 'sessions.csv'), sessions.join('\n') + '\n');
  writeFileSync(join(dir, 'differences.csv'), diffs.join('\n') + '\n');
  return dir;
}

const steady = (p50: Record<string, number>): Made => ({ p50, sessions: 3, spread: () => 1.03 });

test('compare of two same-key runs 15% apart in host factor holds every conclusion in magnitude and names the shared factor once (made-up reports)', async (t) => {
  const base = folder('base', steady(cells('baseline', () => 1)));
  const cand = folder('cand', steady(cells('candidate', () => 1.15)));
  const r = compareReports(readPublishedReport(base), readPublishedReport(cand));
  t.true(Math.abs(r.factor.ratio - 1.15) < 0.01, String(r.factor.ratio));
  t.true(r.factor.low! < 1.15 && 1.15 < r.factor.high!);
  t.is(r.factor.cells, 20);
  t.is(r.heldInMagnitude, r.conclusions.length);
  t.is(r.cells.filter((c) => c.magnitude === 'outside').length, 0);
  const text = await runCli(['compare', base, cand], projectRoot);
  t.is(text.code, 0, text.stderr);
  t.is(text.stdout.match(/every cell ×1\.1\d/g)?.length, 1, text.stdout);
  t.regex(
    text.stdout,
    /16 of 16 conclusions held in direction, 16 in magnitude, 16 in both; every cell ×1\.1\d \[1\.\d\d, 1\.\d\d\], canary: no canary recorded in the baseline or the candidate \(the common factor of 20 time cells; magnitudes judged after it\)\n/,
  );
});

test('a path that moved ×1.4 beyond the shared factor is still found, and exactly its conclusions lose their magnitude (made-up reports)', (t) => {
  const base = folder('base', steady(cells('baseline', () => 1)));
  const cand = folder('cand', steady(cells('candidate', (c) => 1.15 * (c.includes(' gvisor-full ') ? 1.4 : 1))));
  const r = compareReports(readPublishedReport(base), readPublishedReport(cand));
  t.true(Math.abs(r.factor.ratio - 1.15) < 0.02, String(r.factor.ratio));
  t.deepEqual(
    r.cells
      .filter((c) => c.magnitude === 'outside')
      .map((c) => c.path)
      .sort(),
    ['gvisor-full', 'gvisor-full', 'gvisor-full', 'gvisor-full'],
  );
  t.true(r.cells.filter((c) => c.path === 'gvisor-full').every((c) => Math.abs(c.adjustedRatio! - 1.4) < 0.04));
  t.deepEqual(
    r.conclusions.filter((c) => c.magnitude === 'not-held').map((c) => c.b),
    ['gvisor-full', 'gvisor-full', 'gvisor-full', 'gvisor-full'],
  );
});

test('a tolerance is never taken from fewer than 3 sessions without saying so: two sessions no longer call ×1.31 within (made-up reports)', async (t) => {
  const p50 = cells('baseline', () => 1);
  const x = 'shell lazy cold ready';
  const y = 'numpy lazy warm ready';
  const two: Made = { p50, sessions: 2, spread: (c) => (c === x ? 1.35 : c === y ? 1.02 : 1.03) };
  const base = folder('base', two);
  const cand = folder('cand', { ...two, p50: cells('baseline', (c) => (c === x ? 1.31 : c === y ? 0.84 : 1)) });
  const r = compareReports(readPublishedReport(base), readPublishedReport(cand));
  t.like(
    r.cells.find((c) => `${c.cohort} ${c.path} ${c.state} ${c.metric}` === x),
    { magnitude: 'outside', toleranceSource: 'between-run, fewer than 3 sessions' },
  );
  t.like(
    r.cells.find((c) => `${c.cohort} ${c.path} ${c.state} ${c.metric}` === y),
    { magnitude: 'outside' },
  );
  const text = await runCli(['compare', base, cand], projectRoot);
  t.regex(text.stdout, /the tolerance of 20 cells is the between-run figure ×1\.09, not their session spread: the baseline has fewer than 3 sessions of them/);
});

test('the median interval agrees with SciPy’s sign-test order statistics', (t) => {
  const random = seededRandom('median interval');
  for (const n of [6, 9, 20, 40, 57]) {
    const v = Array.from({ length: n }, () => Math.exp(random()));
    const py = execFileSync(
      'python3',
      [
        '-c',
        'import sys,json,numpy as np\nfrom scipy.stats import binom\nx=np.sort(json.loads(sys.argv[1]));n=len(x)\n' +
          'l=max(k for k in range(1,n+1) if binom.cdf(k-1,n,0.5)<=0.025)\nprint(json.dumps([float(np.median(x)),float(x[l-1]),float(x[n-l])]))',
        JSON.stringify(v),
      ],
      { encoding: 'utf8' },
    );
    const [median, low, high] = JSON.parse(py) as [number, number, number];
    const m = medianInterval(v)!;
    t.true(Math.abs(m.median - median) < 1e-12 && m.low === low && m.high === high, `n=${n}: ${JSON.stringify(m)} against ${py}`);
  }
  t.false(medianInterval([1, 2, 3, 4, 5])!.exact);
});

/** run.json with only a canary: each piece's run median (ms). */
function withCanary(dir: string, medians: Record<string, number>): string {
  const pieces = Object.entries(medians).map(([piece, m]) => ({ piece, medianMs: m, lowMs: m * 0.99, highMs: m * 1.01 }));
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ canary: { pieces, sessions: [] } }));
  return dir;
}

test('compare says the canary beside the shared factor, from each run’s run.json, and says so when one run has none (made-up reports)', async (t) => {
  const base = withCanary(folder('base', steady(cells('baseline', () => 1))), { cpu: 100, fs: 40 });
  const cand = withCanary(folder('cand', steady(cells('candidate', () => 1.15))), { cpu: 112, fs: 46 });
  const r = compareReports(readPublishedReport(base), readPublishedReport(cand));
  t.true(Math.abs(r.canary.ratio! - Math.sqrt(1.12 * 1.15)) < 1e-9, String(r.canary.ratio));
  const text = await runCli(['compare', base, cand], projectRoot);
  t.regex(text.stdout, /every cell ×1\.1\d \[1\.\d\d, 1\.\d\d\], canary ×1\.13 \(pieces ×1\.12–×1\.15\) \(the common factor of 20 time cells/);
  const json = JSON.parse((await runCli(['compare', base, cand, '--json'], projectRoot)).stdout) as { canary: { ratio: number } };
  t.true(Math.abs(json.canary.ratio - 1.135) < 0.001);
  const none = folder('none', steady(cells('candidate', () => 1.15)));
  t.regex(
    (await runCli(['compare', base, none], projectRoot)).stdout,
    /every cell ×1\.1\d \[1\.\d\d, 1\.\d\d\], canary: no canary recorded in the candidate \(/,
  );
});
