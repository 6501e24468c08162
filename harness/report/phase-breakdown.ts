// "Where the cold time goes": for every cell whose path prints phase marks,
// each span's median with its two-level interval (analysis.spans), and for
// every configured comparison whose paths have marks, the Ready difference
// span by span (analysis.spanDifferences). The spans say where the time is,
// not why. Pure.
import type { AnalysisResult, SpanDifference, SpanStatistics } from '../analysis/analysis-result.js';
import { fixed } from '../publish/format-number.js';
import { table, type Block } from '../document/document-model.js';
import { differenceSides, side } from './split-flag.js';

const key = (...parts: string[]): string => parts.join('\u0000');

/** `4100.0 [3900.2, 4400.8]` */
function withInterval(v: { p50Ms?: number | null; observedMs?: number | null; lowMs: number | null; highMs: number | null }, msDecimals: number): string {
  const mid = v.p50Ms ?? v.observedMs ?? null;
  if (mid === null) return '-';
  const interval = v.lowMs === null || v.highMs === null ? '' : ` [${fixed(v.lowMs, msDecimals)}, ${fixed(v.highMs, msDecimals)}]`;
  return `${fixed(mid, msDecimals)}${interval}`;
}

function groupBy<T>(items: readonly T[], keyOf: (t: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const t of items) groups.set(keyOf(t), [...(groups.get(keyOf(t)) ?? []), t]);
  return [...groups.values()];
}

/**
 * The spans of one cohort's cells, then where each of its differences lies span
 * by span; no block when no path of the cohort prints phase marks (or the
 * analysis predates spans).
 */
export function phaseBreakdown(a: AnalysisResult, cohort: string, msDecimals: number): Block[] {
  return [...spanTables(a, cohort, msDecimals), ...spanDifferenceTables(a, cohort, msDecimals)];
}

/** One table of the cohort's cells: each span's median with its interval, and the cell's Ready P50. */
export function spanTables(a: AnalysisResult, cohort: string, msDecimals: number): Block[] {
  const spans = (a.spans ?? []).filter((s) => s.cohort === cohort);
  if (!spans.length) return [];
  const conf = fixed(a.rules.bootstrap.confidence * 100, 0);
  const cellRows = groupBy<SpanStatistics>(spans, (s) => key(s.path, s.state)).map((cell) => {
    const { path, state } = cell[0]!;
    const ready = a.cells.find((c) => c.cohort === cohort && c.path === path && c.state === state && c.metric === 'ready');
    return [
      side(a, cohort, path, state),
      state,
      String(Math.min(...cell.map((s) => s.n))),
      cell.map((s) => `${s.name} ${withInterval(s, msDecimals)}`).join(' → '),
      ready?.p50Ms == null ? '-' : fixed(ready.p50Ms, msDecimals),
    ];
  });
  return [table(['path', 'state', 'n', `spans, ms: P50 [${conf}% CI]`, 'Ready P50 (ms)'], cellRows, `**${cohort}**: each span's median`)];
}

/**
 * One table of where each of the cohort's differences lies, span by span;
 * `pairs` keeps only those comparisons, and `withReady` adds the Ready
 * difference itself (left out where the summary already states it).
 */
export function spanDifferenceTables(
  a: AnalysisResult,
  cohort: string,
  msDecimals: number,
  opts: { pairs?: readonly (readonly [string, string])[]; withReady?: boolean } = {},
): Block[] {
  const withReady = opts.withReady ?? true;
  const conf = fixed(a.rules.bootstrap.confidence * 100, 0);
  const differences = (a.spanDifferences ?? []).filter((d) => d.cohort === cohort && (!opts.pairs || opts.pairs.some(([x, y]) => d.a === x && d.b === y)));
  if (!differences.length) return [];
  const rows = groupBy<SpanDifference>(differences, (d) => key(d.a, d.b, d.state)).map((group) => {
    const { a: pa, b: pb, state } = group[0]!;
    const ready = a.differences.find((d) => d.cohort === cohort && d.state === state && d.metric === 'ready' && d.a === pa && d.b === pb);
    return [
      differenceSides(a, cohort, state, 'ready', pa, pb),
      state,
      ...(withReady ? [ready ? withInterval(ready, msDecimals) : '-'] : []),
      group.map((d) => `${d.name} ${withInterval(d, msDecimals)}${d.detected ? '' : ' (not detected)'}`).join('; '),
    ];
  });
  return [
    table(
      ['difference', 'state', ...(withReady ? [`Ready, ms [${conf}% CI]`] : []), `by span: median span of a − of b, ms [${conf}% CI]`],
      rows,
      `**${cohort}**: where each difference lies, span by span`,
    ),
  ];
}

/** The marks each path printed, in order ("docker: pull; oci-full: copy, unpack"), from the analysis' spans; null when no path printed one. */
export function phaseMarksText(a: AnalysisResult): string | null {
  const byPath = new Map<string, string[]>();
  for (const s of [...a.spans].sort((x, y) => x.order - y.order)) {
    if (s.name === 'to Ready') continue;
    const names = byPath.get(s.path) ?? [];
    if (!names.includes(s.name)) names.push(s.name);
    byPath.set(s.path, names);
  }
  return byPath.size ? [...byPath.entries()].map(([path, names]) => `${path}: ${names.join(', ')}`).join('; ') : null;
}

/** What the spans are, in one sentence for the main text; the definition is in the appendix. inSummary: the summary already gives each compared side's cold spans. */
export const phaseBreakdownLead = (marks: string, inSummary: boolean): string =>
  `A span runs from one phase mark of a launch to the next, the last to Ready (the marks: ${marks}); ` +
  (inSummary ? 'the summary and ' : '') +
  'the appendix "Every phase span" give the spans, the appendix with each difference and its interval.';

/** What the spans are: said once per report. */
export const phaseBreakdownDefinition = (marks: string): string =>
  `Paths print a phase mark on stderr when a step ends (${marks}); each mark is timed when read, like the marker. ` +
  'A span is the time between consecutive marks of one launch: the first from spawn, `to Ready` from the last mark to Ready (a path without marks has only that span). ' +
  'Each span has a median and a two-level bootstrap interval (sessions, then rounds); a difference is split into the median span of a minus that of b for each span, a span one path lacks counting as 0 there, with the paired interval and detection rule of the differences. ' +
  'Medians of spans add up to the median Ready, and span differences to the Ready difference, only approximately. The spans show where the time is, not what it is spent on. ' +
  'Every launch’s marks and spans are in phases.csv.';
