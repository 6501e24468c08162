// The figures of reports/reproductions/lazy-startup-rerun-landing/README.md
// (issue 28), computed from the committed report tables so that no figure is
// typed by hand: bench/rerun-landing.ts prints them,
// test/reproduction-rerun-landing.test.ts holds the README to them. Reads files.
//
// Per ordered pair (baseline X, candidate Y):
//   detected in both   conclusions (median differences) both reports detect;
//   held in magnitude  of them, how many `pipeline compare` holds in magnitude
//                      (harness/compare/compare-reports.ts: the baseline's
//                      rerun interval for the candidate's effect after the
//                      common factor, else the candidate's, else the tolerance);
//   inside             of X's differences, how many of Y's estimates (as
//                      published, no factor taken out) fall inside X's
//                      interval of the matching kind: its cross-host interval
//                      when X has one (replicates on two hosts or more), else
//                      its rerun interval; over all of them and over those X detects.
import { join } from 'node:path';
import { compareReports } from '../harness/compare/compare-reports.js';
import { readPublishedReport } from '../harness/compare/read-published-report.js';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import { readFileSync } from 'node:fs';

export const RUNS = join('reports', 'lazy-startup', 'runs');
export const LANDING_DIR = join('reports', 'reproductions', 'lazy-startup-rerun-landing');
export const REANALYSED = '2026-12-02-2db8d3807dc1-reanalysed';

/** The three runs: label, folder relative to the project. */
export const LANDING_RUNS = [
  { label: '2db8 (published 2026-12-02, re-analysed)', folder: join(LANDING_DIR, REANALYSED) },
  { label: '2177 (first rerun, 2026-12-03)', folder: join(RUNS, '2026-12-03-217768e3b495') },
  { label: '8d2c (second rerun, 2026-12-03)', folder: join(RUNS, '2026-12-03-8d2c88c27716') },
] as const;

export interface LandingFigures {
  baseline: string;
  candidate: string;
  conclusions: number;
  detectedInBoth: number;
  heldInMagnitude: number;
  /** The interval kind of the baseline the candidate's estimates were held to. */
  kind: 'rerun' | 'cross-host' | 'rerun and cross-host';
  differences: number;
  inside: number;
  baselineDetected: number;
  insideOfDetected: number;
}

const key = (r: Record<string, string>): string => ['cohort', 'state', 'metric', 'a', 'b'].map((k) => r[k]).join('|');

export function landingFigures(root: string, x: { label: string; folder: string }, y: { label: string; folder: string }): LandingFigures {
  const cmp = compareReports(readPublishedReport(join(root, x.folder)), readPublishedReport(join(root, y.folder)));
  const both = cmp.conclusions.filter((c) => (c.baseline === 'a>b' || c.baseline === 'a<b') && (c.candidate === 'a>b' || c.candidate === 'a<b'));
  const rows = (folder: string): Record<string, string>[] =>
    parseCsvTable(readFileSync(join(root, folder, 'differences.csv'), 'utf8')).rows.filter((r) => (r['kind'] ?? 'median_difference') === 'median_difference');
  const theirs = new Map(rows(y.folder).map((r) => [key(r), r]));
  let differences = 0;
  let inside = 0;
  let detected = 0;
  let insideOfDetected = 0;
  const kinds = new Set<string>();
  for (const d of rows(x.folder)) {
    const o = theirs.get(key(d));
    const cross = d['cross_host_low'] && d['cross_host_high'];
    const [lo, hi] = cross ? [d['cross_host_low'], d['cross_host_high']] : [d['rerun_low'], d['rerun_high']];
    if (!o || !lo || !hi || o['value'] === undefined || o['value'] === '') continue;
    kinds.add(cross ? 'cross-host' : 'rerun');
    const v = Number(o['value']);
    const within = v >= Number(lo) && v <= Number(hi);
    differences++;
    if (within) inside++;
    if (d['detected'] === 'true') {
      detected++;
      if (within) insideOfDetected++;
    }
  }
  return {
    baseline: x.label,
    candidate: y.label,
    conclusions: cmp.conclusions.length,
    detectedInBoth: both.length,
    heldInMagnitude: both.filter((c) => c.magnitude === 'held').length,
    kind: kinds.size === 2 ? 'rerun and cross-host' : kinds.has('cross-host') ? 'cross-host' : 'rerun',
    differences,
    inside,
    baselineDetected: detected,
    insideOfDetected,
  };
}

/** The reruns of the run published on 2026-12-04 (sampled until decided): the published run and two fresh-clone reruns with its sample-stage key. */
export const LANDING_RUNS_ADAPTIVE = [
  { label: 'ea8c (published 2026-12-04)', folder: join(RUNS, '2026-12-04-ea8cfc82341e') },
  { label: '7107 (first rerun, 2026-12-04)', folder: join(RUNS, '2026-12-04-710788c2d305') },
  { label: '660c (second rerun, 2026-12-04)', folder: join(RUNS, '2026-12-04-660cd5314ef6') },
] as const;

type LandingRun = { readonly label: string; readonly folder: string };

/** The README's table: every ordered pair of the three runs (published, first and second rerun) where at least one is a rerun. */
export function figureTable(root: string, runs: readonly [LandingRun, LandingRun, LandingRun] = LANDING_RUNS): string {
  const [published, first, second] = runs;
  const pairs = [
    [published, first],
    [published, second],
    [first, published],
    [second, published],
    [first, second],
    [second, first],
  ] as const;
  const lines = [
    '| baseline X | candidate Y | detected in both | of them held in magnitude | X interval | Y inside X’s interval | of X’s detected |',
    '|---|---|---:|---:|---|---:|---:|',
  ];
  for (const [x, y] of pairs) {
    const f = landingFigures(root, x, y);
    lines.push(
      `| ${f.baseline} | ${f.candidate} | ${f.detectedInBoth} of ${f.conclusions} | ${f.heldInMagnitude} | ${f.kind} | ${f.inside} of ${f.differences} | ${f.insideOfDetected} of ${f.baselineDetected} |`,
    );
  }
  return lines.join('\n');
}
