// "Where the time goes": for every cell whose path prints phase marks, the
// median time from spawn to each mark and the spans between them, ending at
// the cell's median Ready. Medians of different quantities do not add up
// exactly; the table says so. Pure.
import type { AnalysisResult } from '../analysis/analysis-result.js';
import { fixed } from './format-number.js';
import { table, type Table } from '../document/document-model.js';

/** The spans of one cohort's cells as a table, or null when no path of the cohort prints phase marks. */
export function phaseBreakdown(a: AnalysisResult, cohort: string, msDecimals: number): Table | null {
  const marks = a.phaseMarks.filter((m) => m.cohort === cohort);
  if (!marks.length) return null;
  const cells = [...new Set(marks.map((m) => `${m.path}\u0000${m.state}`))].map((k) => k.split('\u0000') as [string, string]);
  const rows = cells.map(([path, state]) => {
    const ms = marks.filter((m) => m.path === path && m.state === state);
    const ready = a.cells.find((c) => c.cohort === cohort && c.path === path && c.state === state && c.metric === 'ready');
    let prev = 0;
    const spans = ms.map((m) => {
      const span = `${m.name}: ${fixed(m.p50Ms - prev, msDecimals)}`;
      prev = m.p50Ms;
      return span;
    });
    if (ready?.p50Ms != null) spans.push(`to Ready: ${fixed(ready.p50Ms - prev, msDecimals)}`);
    return [path, state, String(Math.min(...ms.map((m) => m.n))), spans.join(' → '), ready?.p50Ms == null ? '-' : fixed(ready.p50Ms, msDecimals)];
  });
  return table(['path', 'state', 'n', 'spans, ms (P50)', 'Ready P50 (ms)'], rows, `**${cohort}**`);
}

/** What the spans are: said once per report. */
export const phaseBreakdownDefinition =
  'Paths print a phase mark on stderr when a step ends (docker: the pull; oci-full: the copy, then the unpack); each mark is timed when read, like the marker. ' +
  'Spans are differences of medians (P50 of spawn-to-mark times), so they add up to the median Ready only approximately.';
