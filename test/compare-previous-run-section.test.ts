// "Against the previous run" in every report (issue 44). Made-up runs: a
// made-up archived run folder and made-up CSV texts of the current run, both
// written by the one CSV writer the report stages use; a test of our own
// reading, comparing and wording.
import test from 'ava';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { comparisonDifferencesCsv, comparisonStatisticsCsv } from '../harness/publish/comparison-csv.js';
import { withPreviousRunOf } from '../harness/compare/previous-run-param.js';
import { previousRunFiles } from '../harness/compare/previous-run-files.js';
import { againstPreviousRun, previousRunParagraph, PREVIOUS_RUN_TITLE } from '../harness/compare/previous-run-section.js';
import { readPublishedReport } from '../harness/compare/read-published-report.js';
import { paragraph, type ReportDocument } from '../harness/document/document-model.js';
import { UserError } from '../harness/errors.js';
import type { JudgedComparison } from '../harness/analysis/direction-rule.js';
import type { Verdict } from '../harness/analysis/comparison-verdict.js';
import { tempDir } from './helpers/cli.js';

function comparison(observed: number, low: number, high: number, detected: boolean): JudgedComparison {
  return {
    kind: 'ratio',
    observed,
    low,
    high,
    confidence: 0.95,
    resamples: 1000,
    rounds: 6,
    sessions: 3,
    sameDirection: 3,
    sessionLow: low,
    sessionHigh: high,
    betweenSessionEstimated: true,
    perSession: [],
    findings: {
      detected,
      sessionsDisagreeInSize: false,
      direction: detected ? (observed > 1 ? 'higher' : 'lower') : null,
      sizeUncertain: false,
      sessionsAloneExcluding: 0,
    },
  } as unknown as JudgedComparison;
}

type Line = [cell: string, ratio: number, low: number, high: number, detected: boolean, p50a: number, p50b: number];

function csvs(lines: Line[]): Map<string, string> {
  const verdict = (l: Line): Verdict => (!l[4] ? 'undecided' : l[1] > 1 ? 'higher' : 'lower');
  return new Map([
    [
      'differences.csv',
      comparisonDifferencesCsv(
        lines.map((l) => ({
          cohort: l[0],
          state: 'initial',
          metric: 'completion',
          a: 'naive',
          b: 'native',
          unit: 'ms',
          comparison: comparison(l[1], l[2], l[3], l[4]),
          verdict: verdict(l),
        })),
      ),
    ],
    [
      'statistics.csv',
      comparisonStatisticsCsv(
        lines.flatMap((l) => [
          { cohort: l[0], path: 'naive', state: 'initial', metric: 'completion', unit: 'ms', n: 6, p50: l[5] },
          { cohort: l[0], path: 'native', state: 'initial', metric: 'completion', unit: 'ms', n: 6, p50: l[6] },
        ]),
      ),
    ],
  ]);
}

const previousLines: Line[] = [
  ['c1', 0.43, 0.3, 0.6, true, 43, 100],
  ['c2', 0.74, 0.6, 0.9, true, 74, 100],
  ['c3', 1.2, 0.9, 1.5, false, 120, 100],
  ['c4', 8, 7, 9, true, 800, 100],
];
const currentLines: Line[] = [
  ['c1', 1.37, 1.1, 1.7, true, 137, 100],
  ['c2', 1.34, 0.9, 1.8, false, 134, 100],
  ['c3', 7, 6, 8, true, 700, 100],
  ['c4', 8.5, 7, 10, true, 850, 100],
];

function madeUpArchive(): { root: string; run: string } {
  const root = tempDir('bg-made-up-runs-');
  const run = join(root, 'reports', 'made-up', 'runs', '2026-11-30-made-up0000001');
  mkdirSync(run, { recursive: true });
  for (const [name, text] of csvs(previousLines)) writeFileSync(join(run, name), text);
  return { root, run };
}

test('made-up runs: held, changed, lost and gained against the previous run, counted and named in one paragraph', (t) => {
  const { root, run } = madeUpArchive();
  try {
    const r = againstPreviousRun(readPublishedReport(run), { folder: 'reports/made-up', csvs: csvs(currentLines), canary: null });
    t.deepEqual([r.held, r.changed, r.lost, r.gained], [1, 1, 1, 1]);
    const text = previousRunParagraph('2026-11-30-made-up0000001', r);
    t.regex(text, /archived run `2026-11-30-made-up0000001`/);
    t.regex(text, /of 4 conclusions, 1 held in direction, \d+ held in magnitude, \d+ both/);
    t.regex(text, /1 changed \(c1 initial completion: naive − native\)/);
    t.regex(text, /1 lost \(c2 /);
    t.regex(text, /1 gained \(c3 /);
    t.regex(text, /the appendix "Against the previous run, in full"/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("made-up runs: a report stage adds the section before Method and the conclusions to the appendix; the run's files join the key", (t) => {
  const { root, run } = madeUpArchive();
  try {
    const pipelineFile = join(root, 'pipeline.yaml');
    writeFileSync(pipelineFile, 'stages:\n  - id: report\n    with:\n      previous_run: reports/made-up/runs/2026-11-30-made-up0000001\n');
    const ctx = {
      id: 'report',
      params: { previous_run: 'reports/made-up/runs/2026-11-30-made-up0000001' },
      pipelineDir: root,
      pipelineFile,
      config: { experiment: { name: 'made-up' }, stages: [{ id: 'report' }] },
    } as unknown as Parameters<typeof withPreviousRunOf>[0];
    const doc: ReportDocument = {
      title: 't',
      opening: [],
      sections: [
        { kind: 'section', title: 'Results', blocks: [paragraph('x')] },
        { kind: 'section', title: 'Method', blocks: [paragraph('y')] },
      ],
      appendix: [],
    };
    const out = withPreviousRunOf(ctx, doc, csvs(currentLines), null);
    t.deepEqual(
      out.sections.map((s) => s.title),
      ['Results', PREVIOUS_RUN_TITLE, 'Method'],
    );
    t.deepEqual(
      out.appendix.map((s) => s.title),
      ['Against the previous run, in full'],
    );
    t.is(withPreviousRunOf({ ...ctx, params: {} }, doc, csvs(currentLines), null), doc, 'no previous_run: the document as it is');
    t.true(previousRunFiles(ctx.params).includes(`${ctx.params['previous_run'] as string}/differences.csv`));
    t.deepEqual(previousRunFiles({}), []);
    // a folder that holds no run: the user's error, with the file, line and key
    const bad = { ...ctx, params: { previous_run: 'reports/made-up/runs' } };
    const e = t.throws(() => withPreviousRunOf(bad, doc, csvs(currentLines), null), { instanceOf: UserError });
    t.regex(e!.message, /previous_run reports\/made-up\/runs holds no differences\.csv/);
    t.is(e!.place.line, 4);
    t.is(e!.place.key, 'stages.report.with.previous_run');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
