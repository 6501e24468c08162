// A difference's interval is printed to the digits its bootstrap seed spread
// supports (issue 42, item 5): our own printing rule, and the analysis's
// spread against redraws made here, on made-up sessions.
import test from 'ava';
import { differenceResults } from '../harness/analysis/difference-results.js';
import type { SampleData, ValueRow } from '../harness/analysis/sample-data.js';
import { analysisRules } from '../harness/config/analysis-rules.js';
import { seededRandom } from '../harness/stats/seeded-random.js';
import { pairSessions, twoLevelBootstrap, type SessionRow } from '../harness/stats/two-level-bootstrap.js';
import { endpointDigits, endpointText, msIntervalText, seedDigitsLegend } from '../harness/report/interval-text.js';

test('endpoints keep report.ms_decimals while the seed moves them by at most half its last digit, else whole ms and the move said', (t) => {
  t.is(endpointDigits(null, 1), 1);
  t.is(endpointDigits(0.05, 1), 1);
  t.is(endpointDigits(0.06, 1), 0);
  t.is(endpointDigits(40, 1), 0, 'never below whole ms');
  t.is(msIntervalText(1, 2.25, 0.01, 1), '[1.0, 2.3]');
  t.is(msIntervalText(-14.4, -0.7, 0.45, 1), '[-14, -1]');
  t.is(msIntervalText(2081.1, 2986.1, 106.15, 1), '[2081, 2986]±106');
  t.is(msIntervalText(148.04, 199.3, 0.8, 1), '[148, 199]±0.8', 'a move below 10 ms keeps one decimal');
  t.is(msIntervalText(148.04, 199.3, 0.8, 1, false), '[148, 199]', 'a column beside the interval that says the move need not repeat it');
});

test('an endpoint that would round to 0 keeps the digit that shows its sign, so an interval excluding 0 never prints touching it', (t) => {
  t.is(endpointText(-0.4, 0), '-0.4');
  t.is(endpointText(0.04, 0), '0.04');
  t.is(endpointText(0.004, 0), '0.00');
  t.is(msIntervalText(-12.2, -0.3, 0.2, 1), '[-12, -0.3]');
});

test('the legend is said only when some interval lost a digit, and counts the ones with "±N"', (t) => {
  t.is(seedDigitsLegend([0.01, null, undefined], 1), null);
  t.regex(seedDigitsLegend([0.01, 0.3, 12.4], 1)!, /^endpoints have the digits two more bootstrap seeds agree on; ±N: they move it N ms \(1 of 3, up to 12\)$/);
  t.false(seedDigitsLegend([0.01, 0.3], 1)!.includes('±'));
});

function madeUpSessions(sessions: number, rounds: number, spread: number): SampleData {
  const random = seededRandom(`interval-digits-${sessions}-${spread}`);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const values: ValueRow[] = [];
  for (let session = 1; session <= sessions; session++) {
    const s = spread * normal();
    for (let round = 1; round <= rounds; round++) {
      ['a', 'b'].forEach((path, position) => {
        const ms = (path === 'a' ? 120 : 100) * Math.exp(s + spread * normal());
        values.push({
          launchId: `${session}.${round}.${path}`,
          cohort: 'shell',
          path,
          state: 'warm',
          session,
          round,
          position,
          previousPath: position ? 'a' : null,
          readyMs: ms,
          completionMs: ms,
          contentBytes: null,
          responseBytes: null,
        });
      });
    }
  }
  const cells = ['a', 'b'].map((path) => ({ cohort: 'shell', path, state: 'warm', launches: sessions * rounds, failures: 0 }));
  return { phases: [], cells, positions: { shell: 2 }, failures: [], values, marks: [] };
}

for (const [sessions, rounds, spread] of [
  [5, 4, 0.3],
  [12, 20, 0.02],
] as const) {
  test(`made-up ${sessions} sessions × ${rounds} rounds (log sd ${spread}): the recorded spread is the largest move under two more seeds, and the printing hides no more than it`, (t) => {
    const data = madeUpSessions(sessions, rounds, spread);
    const rules = analysisRules({ metrics: ['ready'], comparisons: [{ a: 'a', b: 'b' }], bootstrap: { resamples: 400, seed: 'digits' } });
    const [d] = differenceResults(data, rules, rules.comparisons, true);
    t.truthy(d);
    const rows: SessionRow[] = data.values.map((v) => ({ session: v.session, round: v.round, value: v.readyMs!, path: v.path }));
    // the redraws, made here from the seed the analysis documents: its own seed with "|seed-check-1" and "|seed-check-2"
    const redraws = ['seed-check-1', 'seed-check-2'].map((s) =>
      twoLevelBootstrap(pairSessions(rows, 'a', 'b'), { resamples: 400, confidence: 0.95, seed: `digits|shell|warm|ready|a|b|${s}` }),
    );
    const moves = redraws.flatMap((r) => [Math.abs(r.low! - d!.lowMs!), Math.abs(r.high! - d!.highMs!)]);
    t.is(d!.seedSpreadMs, Math.max(...moves));
    const digits = endpointDigits(d!.seedSpreadMs, 1);
    const printed = msIntervalText(d!.lowMs!, d!.highMs!, d!.seedSpreadMs, 1);
    if (d!.seedSpreadMs! > 0.5) {
      // few sessions: the endpoints move by more than whole ms can hide, and the move is printed beside them
      t.is(sessions, 5);
      t.true(printed.endsWith(`]±${d!.seedSpreadMs!.toFixed(d!.seedSpreadMs! < 10 ? 1 : 0)}`), printed);
      return;
    }
    t.is(sessions, 12);
    t.false(printed.includes('±'));
    const unit = 10 ** -digits;
    for (const r of redraws) {
      for (const [mine, theirs] of [
        [d!.lowMs!, r.low!],
        [d!.highMs!, r.high!],
      ]) {
        t.true(Math.abs(Number(endpointText(mine!, digits)) - Number(endpointText(theirs!, digits))) <= unit + 1e-9, `${mine} against ${theirs} at ${digits}`);
      }
    }
    // without the check (the sample stage's confirmation step) nothing is recorded
    t.is(differenceResults(data, rules, rules.comparisons)[0]!.seedSpreadMs, undefined);
  });
}
