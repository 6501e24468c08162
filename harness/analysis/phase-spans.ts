// Pure: where each launch's Ready goes, span by span. A span is the time
// between consecutive phase marks of one launch: the first from spawn to the
// first mark, each next one from the mark before, and `to Ready` from the last
// mark to Ready. A launch of a path that prints no marks is one span, `to
// Ready`, its whole Ready. A span is named after the mark that ends it, a
// trailing `-done` dropped (mark `unpack-done` ends span `unpack`). A span
// name a launch lacks counts as 0 ms for it.
//
// Per cell whose path prints marks: each span's median over the cell's valid
// formal launches with a two-level bootstrap interval (sessions, then rounds:
// stats/two-level-median.ts). Per configured comparison (a, b), per state,
// when a or b prints marks: for each span name in either, median span of a
// minus median span of b with the two-level paired interval of the
// differences (stats/two-level-bootstrap.ts, computed by its fast twin) and the
// same detection rule: the one record of a difference (difference-record.ts).
// Medians of spans do not add up to the median Ready exactly.
import { pairSessions } from '../stats/two-level-bootstrap.js';
import { twoLevelMedian } from '../stats/two-level-median.js';
import { msComparison } from './difference-record.js';
import { cellKey, rowsByCell } from './difference-results.js';
import type { AnalysisRules, Comparison } from '../config/analysis-rules.js';
import type { LaunchSpans, SpanDifference, SpanStatistics } from './analysis-result.js';
import type { MarkRow, SampleData, ValueRow } from './sample-data.js';

/** The name of the last span, from the last mark (or spawn) to Ready. */
export const toReadySpan = 'to Ready';

/** The span a mark ends: `unpack-done` ends `unpack`. */
export const spanNameOf = (mark: string): string => mark.replace(/-done$/, '') || mark;

/** The spans of every valid formal launch with a Ready, in the order of data.values. */
export function launchSpans(values: readonly ValueRow[], marks: readonly MarkRow[]): LaunchSpans[] {
  const byLaunch = new Map<string, MarkRow[]>();
  for (const m of marks) {
    let list = byLaunch.get(m.launchId);
    if (!list) byLaunch.set(m.launchId, (list = []));
    list.push(m);
  }
  const out: LaunchSpans[] = [];
  for (const v of values) {
    if (v.readyMs === null || !Number.isFinite(v.readyMs)) continue;
    const own = [...(byLaunch.get(v.launchId) ?? [])].sort((x, y) => x.seq - y.seq);
    let previous = 0;
    const spans: LaunchSpans['spans'] = own.map((m) => {
      const span = { seq: m.seq, name: spanNameOf(m.name), mark: m.name, atMs: m.atMs, spanMs: m.atMs - previous };
      previous = m.atMs;
      return span;
    });
    spans.push({ seq: own.length + 1, name: toReadySpan, mark: null, atMs: null, spanMs: v.readyMs - previous });
    out.push({ launchId: v.launchId, cohort: v.cohort, path: v.path, state: v.state, session: v.session, round: v.round, readyMs: v.readyMs, spans });
  }
  return out;
}

/** Span names of launches in their order of appearance (smallest mark order first), `to Ready` last. */
function spanNames(launches: readonly LaunchSpans[]): string[] {
  const first = new Map<string, number>();
  for (const l of launches) for (const s of l.spans) if (s.name !== toReadySpan) first.set(s.name, Math.min(first.get(s.name) ?? Infinity, s.seq));
  return [...[...first].sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0])).map(([name]) => name), toReadySpan];
}

const spanOf = (l: LaunchSpans, name: string): number => l.spans.filter((s) => s.name === name).reduce((sum, s) => sum + s.spanMs, 0);

const printsMarks = (launches: readonly LaunchSpans[]): boolean => launches.some((l) => l.spans.length > 1);

export function phaseSpans(
  data: SampleData,
  rules: AnalysisRules,
  comparisons: readonly Comparison[],
): { spans: SpanStatistics[]; spanDifferences: SpanDifference[]; launchSpans: LaunchSpans[] } {
  const all = launchSpans(data.values, data.marks);
  const byCell = rowsByCell(all);
  const options = (...parts: string[]) => ({
    resamples: rules.bootstrap.resamples,
    confidence: rules.bootstrap.confidence,
    seed: [rules.bootstrap.seed, 'span', ...parts].join('|'),
  });

  const spans: SpanStatistics[] = [];
  for (const c of data.cells) {
    const launches = byCell.get(cellKey(c.cohort, c.path, c.state)) ?? [];
    if (!printsMarks(launches)) continue;
    spanNames(launches).forEach((name, i) => {
      const m = twoLevelMedian(
        launches.map((l) => ({ session: l.session, round: l.round, value: spanOf(l, name) })),
        options(c.cohort, c.path, c.state, name),
      );
      spans.push({
        cohort: c.cohort,
        path: c.path,
        state: c.state,
        name,
        order: i + 1,
        n: m.n,
        sessions: m.sessions,
        p50Ms: m.medianMs,
        lowMs: m.lowMs,
        highMs: m.highMs,
      });
    });
  }

  const spanDifferences: SpanDifference[] = [];
  const cohorts = [...new Set(data.cells.map((c) => c.cohort))].sort();
  const states = [...new Set(data.cells.map((c) => c.state))].sort();
  for (const cohort of cohorts) {
    for (const cmp of comparisons) {
      for (const state of states) {
        const a = byCell.get(cellKey(cohort, cmp.a, state)) ?? [];
        const b = byCell.get(cellKey(cohort, cmp.b, state)) ?? [];
        if (!a.length || !b.length || !(printsMarks(a) || printsMarks(b))) continue;
        spanNames([...a, ...b]).forEach((name, i) => {
          const rows = [
            ...a.map((l) => ({ session: l.session, round: l.round, path: cmp.a, value: spanOf(l, name) })),
            ...b.map((l) => ({ session: l.session, round: l.round, path: cmp.b, value: spanOf(l, name) })),
          ];
          const comparison = msComparison(pairSessions(rows, cmp.a, cmp.b), options(cohort, state, cmp.a, cmp.b, name));
          spanDifferences.push({ cohort, state, metric: 'ready', a: cmp.a, b: cmp.b, name, order: i + 1, ...comparison });
        });
      }
    }
  }
  return { spans, spanDifferences, launchSpans: all };
}
