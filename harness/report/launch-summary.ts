// The launch report's first screen (pure): the comparisons of the summary
// table in their order, the table with the answer and its legend, the sweep
// table, and the sentences that follow it.
import { fixed, grouped } from '../publish/format-number.js';
import { coldSpansSentence, runtimeHeldFixedPairs, unsplitStepSentence } from './source-gap-phrases.js';
import { answerParagraph } from './answer-sentence.js';
import { sweepGrowth, type GrowthRow } from './sweep-growth.js';
import { side, splitLegend, splitSuffix } from './split-flag.js';
import type { AnalysisWithSourceGap } from '../analysis/source-gap-facts.js';
import { MAY_NOT_HOLD } from './rerun-wording.js';
import { seedDigitsLegend } from './interval-text.js';
import { differenceCell, fastestCell, keyPairs } from './launch-phrases.js';
import { paragraph, section, table, type Block } from '../document/document-model.js';
import type { Ctx } from './launch-report-context.js';

export function summaryPairs(c: Ctx): [string, string][] {
  const out: [string, string][] = [];
  const add = (p: string, q: string): void => {
    if (!out.some(([x, y]) => x === p && y === q) && c.a.differences.some((d) => !d.factor && d.metric === 'ready' && d.a === p && d.b === q)) out.push([p, q]);
  };
  for (const cmp of c.a.rules?.comparisons ?? []) if (!cmp.factor) add(cmp.a, cmp.b);
  for (const [p, q] of keyPairs(c.a, c.verdicts)) add(p, q);
  return out;
}

/**
 * The answer first, then one row per comparison the pipeline lists (in its order) and one column per cohort and state:
 * the difference with its intervals and P50 ratio, then the fastest path; then what its words mean (after the table, so
 * the headline figures are on the first screen). The source's verdicts are the next section's, said there once.
 */
/** report.sweep: each path's P50 at every level, Ready and Completion, and its growth per level unit with the between-session interval. */
export function sweepBlocks(c: Ctx): Block[] {
  const sweep = c.inp.options.sweep;
  if (!sweep) return [];
  const conf = c.a.differences[0]?.confidence ?? 0.95;
  const g = sweepGrowth(c.a.cells, sweep, conf);
  if (!g.rows.length) return [];
  const d = c.inp.options.msDecimals;
  const ms = (v: number | null): string => (v === null ? '–' : fixed(v, d));
  const slope = (r: GrowthRow): string =>
    r.slope === null
      ? '–'
      : r.slope.low === null || r.slope.high === null
        ? fixed(r.slope.value, 2)
        : `${fixed(r.slope.value, 2)} [${fixed(r.slope.low, 2)}, ${fixed(r.slope.high, 2)}]`;
  const order = (r: GrowthRow): string => `${r.metric === 'ready' ? 0 : 1}${c.states.indexOf(r.state)}${c.paths.indexOf(r.path)}`;
  const rows = [...g.rows].sort((x, y) => (order(x) < order(y) ? -1 : order(x) > order(y) ? 1 : 0));
  return [
    table(
      ['metric', 'state', 'path', ...g.levels.map((l) => `P50 at ${grouped(l)} ${sweep.unit}, ms`), `growth, ms per ${sweep.unit} [${fixed(conf * 100, 0)}%]`],
      rows.map((r) => [r.metric === 'ready' ? 'Ready' : 'Completion', r.state, r.path, ...r.p50Ms.map(ms), slope(r)]),
      `How each cell grows with the ${sweep.name}: its P50 at each ${sweep.name} size, and the mean of the sessions' least-squares slopes of their own P50s on the ${sweep.name} in ${sweep.unit}, with Student's t over the sessions`,
    ),
  ];
}

export function summaryTable(c: Ctx): Block[] {
  const pairs = summaryPairs(c);
  const conf = fixed((c.a.differences[0]?.confidence ?? 0.95) * 100, 0);
  const cells = c.cohorts.flatMap((cohort) =>
    c.states.filter((state) => c.a.cells.some((x) => x.cohort === cohort && x.state === state)).map((state) => ({ cohort, state })),
  );
  const pairLabel = ([p, q]: [string, string]): string => {
    const stack = c.stackOf(q);
    return `${p} − ${q}${stack !== null && c.stackOf(p) === stack ? ` (runtime held fixed: ${stack})` : ''}`;
  };
  const rows = [
    ...pairs.map((pair) => [
      pairLabel(pair),
      ...cells.map(
        ({ cohort, state }) =>
          differenceCell(
            c.a,
            c.a.differences.find((d) => !d.factor && d.cohort === cohort && d.state === state && d.metric === 'ready' && d.a === pair[0] && d.b === pair[1]),
            c.inp.options.msDecimals,
          ) + splitSuffix(c.a, cohort, state, 'ready', pair),
      ),
    ]),
    // the equivalence's margin is its comparison row's: said once
    [
      'lowest Ready P50',
      ...cells.map(({ cohort, state }) => fastestCell(c.a, cohort, state, c.paths, true).replace(/^\S+/, (p) => side(c.a, cohort, p, state))),
    ],
  ];
  const answer = answerParagraph(c.a, c.inp.options.answer ?? [], cells);
  // the same-class rerun and cross-class intervals: differences.csv and the appendix "Every difference" (the scope line says what they cover)
  const summary = table([`Ready, a − b: ms [${conf}% CI], P50 ratio a/b`, ...cells.map((x) => `${x.cohort} ${x.state}`)], rows);
  const shown = c.a.differences.filter((d) => !d.factor && d.metric === 'ready' && pairs.some(([p, q]) => d.a === p && d.b === q));
  const seedLegend = seedDigitsLegend(
    shown.map((d) => d.seedSpreadMs),
    c.inp.options.msDecimals,
  );
  // each verdict word is defined only when a cell of the table uses it
  const legend =
    `**Reading the table.** Ready is the time from spawning the launch command to reading its marker line. A difference is the first path's median minus the second's` +
    (c.a.decision?.rule === 'sequential'
      ? `; its verdict is the sequential rule's (Method): a figure with no word after it is lower or higher, and the ${conf}% CI describes the sessions run`
      : rows.some((r) => r.some((x) => x.includes('not detected')))
        ? '; "not detected" means its interval, or the between-session one, contains 0'
        : '') +
    (rows.some((r) => r.some((x) => x.includes(MAY_NOT_HOLD)))
      ? `; "${MAY_NOT_HOLD}": its same-class rerun interval (the appendix "Every difference") holds 0`
      : '') +
    (rows.some((r) => r.some((x) => x.includes('size uncertain')))
      ? '; "size uncertain" means the between-session interval contains 0 but every session, on its own rounds, excludes 0 on the same side: the direction holds, the size does not'
      : '') +
    (rows.some((r) => r.some((x) => x.includes('sessions disagree')))
      ? '; "sessions disagree" means the interval excludes 0 but neither the between-session interval nor every session alone does'
      : '') +
    (rows.some((r) => r.some((x) => x.includes('equivalent within')))
      ? c.a.decision?.rule === 'sequential'
        ? `; "equivalent within ±δ" (δ in % and ms) means that interval lies inside ±δ of the second path's median (analysis.practical)`
        : `; "equivalent within ±δ" (δ in % and ms) means both lie inside ±δ of the second path's median (analysis.practical)`
      : '') +
    (seedLegend ? `; ${seedLegend}` : '') +
    '.' +
    (splitLegend(c.a) ? ` ${splitLegend(c.a)}` : '');
  return [...(answer ? [paragraph(answer)] : []), summary, paragraph(legend)];
}

/** The headline pair's twin with the runtime held fixed (the question as asked: what reading on demand saves), when the headline pair mixes two stacks. */
export const heldFixed = (c: Ctx, key: readonly [string, string][]): [string, string][] => runtimeHeldFixedPairs(c.a, key.slice(0, 1), c.stackOf);

/** The cold spans of the summary's first sides (each difference's a), or null when none prints marks. */
export function summarySpans(c: Ctx): string | null {
  const key = keyPairs(c.a, c.verdicts);
  const firsts = [...new Set([...heldFixed(c, key), ...key].map(([p]) => p))];
  return coldSpansSentence(c.a as AnalysisWithSourceGap, c.cohorts, firsts, { ms: c.ms, pct: c.f.pct });
}

/** Under the summary: each compared path's cold spans (a step is split only where its launch marks its parts); why the saving differs from the source is in the appendix (sourceGapText). */
export function summaryFollowUp(c: Ctx): string[] {
  const a = c.a as AnalysisWithSourceGap;
  const key = keyPairs(c.a, c.verdicts);
  const pairs = [...heldFixed(c, key), ...key];
  const firsts = [...new Set(pairs.map(([p]) => p))];
  const spans = [summarySpans(c), unsplitStepSentence(a, firsts)].filter((s): s is string => s !== null);
  return spans.length ? [spans.join(' ')] : [];
}

/** What the appendix "Against the source, in full" holds of each finding. */
