// The one judge (harness/comparison/judge.ts) as commit-diff and
// sandbox-effects use it, on made-up rows (our own logic, no measurement):
// a run that sampled until decided is judged by the sequential rule, a fixed
// run by the fixed rule, and the differences.csv verdict is the analysis's
// verdict under the user's margin, whatever the margin.
import test from 'ava';
import { analyzeCommits, type CommitRowData } from '../harness/commit/commit-analysis.js';
import { judge, sessionMeanLogRatios } from '../harness/comparison/judge.js';
import { sequentialRuleSentence } from '../harness/comparison/rule-words.js';
import { verdictCell } from '../harness/commit/commit-phrases.js';
import { comparisonDifferencesCsv } from '../harness/publish/comparison-csv.js';
import { effectCell } from '../harness/sandbox/effect-cell.js';
import { triedAndDropped } from '../harness/sandbox/tried-and-dropped.js';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import { sequentialDecision } from '../harness/analysis/sequential-decision.js';
import { marginHalfWidth } from '../harness/analysis/comparison-verdict.js';
import { defaultSequentialPlan, lookPlan } from '../harness/stats/sequential-session-interval.js';
import { adaptiveDesign, adaptiveRecord, planOf } from '../harness/experiment/adaptive-plan.js';
import { readLooks } from '../harness/comparison/looks-file.js';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pairSessions } from '../harness/stats/two-level-bootstrap.js';
import { commitRow } from './helpers/commit-rows.js';
import { madeUpEffectRow, madeUpEffectRows } from './helpers/effect-rows.js';
import { tempDir } from './helpers/cli.js';

const bootstrap = { resamples: 400, confidence: 0.95, seed: 'judge-test' };
const dims = { total_mb: 100, file_count: 100, change_bytes: 1024 };
const fixedRule = { margin: { relative: 0.05, absoluteMs: 0 }, looks: null };
const looks = { minSessions: 3, maxSessions: 6 };

/** Three sessions of 7 rounds, naive/native = exp(per-session log ratio) with a small round wobble. */
function commitRows(logRatios: readonly number[], nativeMs = 400): CommitRowData[] {
  const rows: CommitRowData[] = [];
  logRatios.forEach((lr, i) => {
    for (let round = 1; round <= 7; round++) {
      const wobble = 1 + 0.002 * ((round % 3) - 1);
      rows.push(commitRow(dims, 'native', 'initial', round, nativeMs * wobble, 'formal', i + 1));
      rows.push(commitRow(dims, 'naive', 'initial', round, nativeMs * Math.exp(lr) * wobble, 'formal', i + 1));
    }
  });
  return rows;
}

// per-session log ratios 0.07, 0.10, 0.13: the between-session t is 5.8, beyond the fixed rule's 4.30 and short of the
// sequential boundary at look 3 of 6
const between = [0.07, 0.1, 0.13];

test('an early-stopped commit-diff run is judged by the sequential rule, a fixed one by the fixed rule (made-up rows)', (t) => {
  const fixed = analyzeCommits(commitRows(between), [], bootstrap, fixedRule).ratios[0]!;
  t.is(fixed.judgement.rule.kind, 'fixed');
  t.is(fixed.judgement.verdict, 'higher', 'the fixed between-session t excludes 1');
  const adaptive = analyzeCommits(commitRows(between), [], bootstrap, { ...fixedRule, looks }).ratios[0]!;
  t.is(adaptive.judgement.rule.kind, 'sequential');
  // the same decision recomputed from the rows: the per-session mean log ratios at the look of 3 sessions
  const plan = { ...defaultSequentialPlan, ...looks };
  const decision = sequentialDecision(between, plan, 0.05);
  const sessions = pairSessions(
    commitRows(between).map((r) => ({ session: r.session, round: r.round, path: r.method, value: r.wallMs! })),
    'naive',
    'native',
  );
  sessionMeanLogRatios(sessions).forEach((v, i) => t.true(Math.abs(v - between[i]!) < 1e-9, `session ${i + 1}: ${v}`));
  t.is(decision.stop, false, 'look 3 of 6 does not stop');
  t.is(adaptive.judgement.verdict, 'undecided');
  t.is(adaptive.judgement.direction, null);
  if (adaptive.judgement.rule.kind === 'sequential') {
    t.is(adaptive.judgement.rule.look, 3);
    t.true(Math.abs(Math.log(adaptive.judgement.rule.ratio!) - 0.1) < 1e-9);
    t.true(adaptive.judgement.rule.ratioLow! < 1);
  }
});

test('an early-stopped sandbox-effects run is judged by the sequential rule: its row is dropped as undecided, with the look named (made-up rows)', (t) => {
  const row = madeUpEffectRow('fast-path');
  const ratioOf = [0.935, 0.905, 0.878]; // per-session after/before, log ratios about -0.07, -0.10, -0.13
  const samples = madeUpEffectRows(
    row.id,
    { sessions: 3, rounds: 7 },
    () => 400,
    (u, session) => 400 * ratioOf[session - 1]! * (1 + 0.001 * (u - 0.5)),
  );
  const fixedCell = effectCell(row, samples, bootstrap, undefined, fixedRule);
  t.is(fixedCell.judgement.rule.kind, 'fixed');
  t.is(triedAndDropped(fixedCell, false).outcome, 'kept');
  const cell = effectCell(row, samples, bootstrap, undefined, { ...fixedRule, looks });
  t.is(cell.judgement.rule.kind, 'sequential');
  const v = triedAndDropped(cell, false);
  t.is(v.outcome, 'dropped');
  t.is(v.direction, null);
  t.regex(v.reasons[0]!, /^undecided: the sequential rule's interval at session 3 \[0\.\d+, 1\.\d+\] \(looks 3 to 6\) does not exclude 1$/);
});

test("differences.csv writes the analysis's verdict under the user's margin: equivalence follows min_ratio_change and min_ms (made-up rows)", (t) => {
  // naive and native alike within about 1% in every session, at 38 ms
  const rows = commitRows([0.004, -0.006, 0.002], 38);
  const csvVerdict = (margin: { relative: number; absoluteMs: number }): string => {
    const ratio = analyzeCommits(rows, [], bootstrap, { margin, looks: null }).ratios[0]!;
    const csv = comparisonDifferencesCsv([
      {
        cohort: ratio.cell,
        state: ratio.state,
        metric: 'completion',
        a: 'naive',
        b: 'native',
        unit: 'ms',
        comparison: ratio.comparison,
        verdict: ratio.judgement.verdict,
      },
    ]);
    return parseCsvTable(csv).rows[0]!['verdict']!;
  };
  t.is(csvVerdict({ relative: 0.05, absoluteMs: 0 }), 'equivalent');
  t.is(csvVerdict({ relative: 0.001, absoluteMs: 0 }), 'undecided', 'a band of 0.1% is narrower than the intervals');
  t.is(csvVerdict({ relative: 0.001, absoluteMs: 10 }), 'equivalent', '10 ms of a 38 ms median is a band of 26%');
  t.true(Math.abs(marginHalfWidth({ relative: 0.001, absoluteMs: 10 }, 38) - 10 / 38) < 1e-12);
});

test('the judge of a fixed design reads only the comparison: the same verdict with or without its sessions', (t) => {
  const ratio = analyzeCommits(commitRows(between), [], bootstrap, fixedRule).ratios[0]!;
  t.deepEqual(judge(ratio.comparison, [], 400, fixedRule.margin, null), ratio.judgement);
});

test("a commit-diff report of an early-stopped run says its verdicts are the sequential rule's, in the Method and cell by cell (made-up rows)", (t) => {
  const adaptive = analyzeCommits(commitRows(between), [], bootstrap, { ...fixedRule, looks });
  const r = adaptive.ratios[0]!;
  t.is(verdictCell(r.comparison, r.judgement), 'undecided (sequential rule, session 3)');
  t.regex(sequentialRuleSentence(adaptive.ratios.map((x) => x.judgement))!, /looks after sessions 3 to 6, .*\(0 of 1 decided\)/);
  const fixed = analyzeCommits(commitRows(between), [], bootstrap, fixedRule);
  t.is(sequentialRuleSentence(fixed.ratios.map((x) => x.judgement)), null);
  t.is(verdictCell(fixed.ratios[0]!.comparison, fixed.ratios[0]!.judgement), 'detected: naive slower');
});

test("design.adaptive.spending_rho reaches the sampling's plan, adaptive.json and the judge, which then decides at the sampling's boundaries (made-up rows)", (t) => {
  const design = adaptiveDesign({ min_sessions: 5, max_sessions: 9, spending_rho: 3 })!;
  t.deepEqual(planOf(design).spending, { kind: 'power', rho: 3 });
  t.deepEqual(adaptiveDesign({ min_sessions: 5, max_sessions: 9 })!.spendingRho, 1);
  const dir = tempDir('bg-looks-');
  try {
    const file = join(dir, 'adaptive.json');
    const record = adaptiveRecord({ comparisons: [], next: null, visits: [], stopped: 'decided', spent: { launches: 0, minutes: 0 } }, design, 5);
    writeFileSync(file, JSON.stringify(record));
    const read = readLooks({ file });
    t.deepEqual(read, { minSessions: 5, maxSessions: 9, spendingRho: 3 });
    // rho 3 spends less of alpha at the first look than linear spending: its interval there is wider, and the judge reading
    // adaptive.json gives the rho-3 interval
    const values = [0.03, 0.05, 0.04, 0.06, 0.05];
    const half = 0.05;
    const linear = sequentialDecision(values, lookPlan(5, 9, 1), half);
    const cubic = sequentialDecision(values, lookPlan(5, 9, 3), half);
    t.true(linear.interval!.high - linear.interval!.low < cubic.interval!.high - cubic.interval!.low, 'rho 3 has the wider first-look interval');
    const sessions = values.map((lr, i) => ({
      session: i + 1,
      rounds: [1, 2].map((round) => ({ round, a: [100 * Math.exp(lr)], b: [100] })),
    }));
    const c = {
      kind: 'difference',
      observed: 5,
      low: 1,
      high: 9,
      sessionLow: 1,
      sessionHigh: 9,
      sessions: 5,
      findings: { detected: true, sizeUncertain: false },
    } as never;
    const byRead = judge(c, sessions, 100, { relative: 0.05, absoluteMs: 0 }, read);
    t.is(byRead.rule.kind === 'sequential' && byRead.rule.ratioHigh, Math.exp(cubic.interval!.high));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
