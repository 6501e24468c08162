// What every statement of a statistic carries (pure): the report's number
// formats, how many launches a cell covers and how many failed and why (failed
// launches are left out of every statistic), how many rounds a comparison
// used, and whether a difference is detected or its sessions disagree.
import type { AnalysisResult, CellStatistics, DifferenceResult } from '../analysis/analysis-result.js';
import { fixed } from '../publish/format-number.js';
import type { ReportOptions } from '../config/report-options.js';
import { STDERR_ENDS } from '../launch/launch-outcome.js';

export interface Formatters {
  ms: (v: number) => string;
  pct: (v: number) => string;
  s: (v: number) => string;
}

export function formatters(o: ReportOptions): Formatters {
  return {
    ms: (v) => `${fixed(v, o.msDecimals)} ms`,
    pct: (v) => `${fixed(v * 100, o.percentDecimals)}%`,
    s: (v) => `${fixed(v, o.secondsDecimals)} s`,
  };
}

/**
 * Short label of a failure reason for per-cell sentences: timeouts are
 * "timeout", the per-launch marker text is dropped (so equal causes group),
 * long text is shortened. The failures table keeps the full reasons.
 */
export function reasonLabel(reason: string): string {
  if (/^timed out\b/.test(reason)) return 'timeout';
  const r = reason
    .split(STDERR_ENDS)[0]!
    .replace(/marker line "[^"]*"/g, 'marker line')
    .trim();
  return r.length > 60 ? `${r.slice(0, 59).trimEnd()}…` : r;
}

/** "timeout" or "2 timeout, 1 exit code 1": the failure reasons of one cell, most frequent first. */
export function failureReasonsText(a: AnalysisResult, cohort: string, path: string, state: string): string {
  const byLabel = new Map<string, number>();
  for (const x of a.failures) {
    if (x.cohort !== cohort || x.path !== path || x.state !== state) continue;
    const label = reasonLabel(x.reason);
    byLabel.set(label, (byLabel.get(label) ?? 0) + x.count);
  }
  const list = [...byLabel].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  if (list.length === 0) return 'reason not recorded';
  if (list.length === 1) return list[0]![0];
  return list.map(([label, n]) => `${n} ${label}`).join(', ');
}

/** "2 failed (timeout)", or '' for a cell without failures. */
export function failedText(a: AnalysisResult, c: CellStatistics): string {
  return c.failures === 0 ? '' : `${c.failures} failed (${failureReasonsText(a, c.cohort, c.path, c.state)})`;
}

/**
 * How many launches a cell's statistics cover: "n=30 of 30", or
 * "n=28 of 30; 2 failed (timeout)" (failed launches are not in the statistics,
 * so the slowest launches may be missing), plus ok launches without a value.
 */
export function countText(a: AnalysisResult, c: CellStatistics): string {
  const parts = [`n=${c.n} of ${c.launches}`];
  if (c.failures > 0) parts.push(failedText(a, c));
  const noValue = c.launches - c.failures - c.n;
  if (noValue > 0) parts.push(`${noValue} without a ${c.metric} value`);
  return parts.join('; ');
}

function cellOf(a: AnalysisResult, cohort: string, path: string, state: string, metric: string): CellStatistics | undefined {
  return a.cells.find((c) => c.cohort === cohort && c.path === path && c.state === state && c.metric === metric);
}

/** Formal rounds of a comparison: the larger launch count of its two cells (one launch per round). */
export function comparisonRounds(a: AnalysisResult, d: DifferenceResult): number {
  const la = cellOf(a, d.cohort, d.a, d.state, d.metric)?.launches ?? d.rounds;
  const lb = cellOf(a, d.cohort, d.b, d.state, d.metric)?.launches ?? d.rounds;
  return Math.max(la, lb, d.rounds);
}

/** True when the two-level bootstrap interval of d contains 0 (or there is none). */
export function twoLevelContainsZero(d: DifferenceResult): boolean {
  return d.lowMs === null || d.highMs === null || !(d.lowMs > 0 || d.highMs < 0);
}

/** The analysis's finding: detected by the two-level interval but not by the between-session one (stats/paired-comparison.ts). */
export function sessionsDisagreeInSize(d: DifferenceResult): boolean {
  return d.findings.sessionsDisagreeInSize;
}

/** The one direction rule's outcome (analysis/direction-rule.ts): not detected, but every session alone excludes 0 on one side. */
export function sizeUncertain(d: DifferenceResult): boolean {
  return !d.detected && d.findings.sizeUncertain && d.findings.sessionsAloneExcluding !== undefined;
}

/**
 * The outcome of one difference in the words of docs/VERDICTS.md: detected; size uncertain (the direction
 * holds in every session alone, the size does not hold across sessions); sessions disagree (the two-level
 * interval excludes 0, but neither the between-session interval nor every session alone does); else
 * the caller's words for no direction (report/difference-verdict-text.ts noDirectionText: equivalent within ±δ, or
 * undecided in a run sampled until decided), else not detected.
 */
export function outcomeWords(d: DifferenceResult, noDirection: string | null): string {
  if (d.observedMs === null) return 'not computable';
  if (d.detected) return 'detected';
  if (sizeUncertain(d)) return 'size uncertain';
  if (d.findings.sessionsDisagreeInSize) return 'sessions disagree';
  return noDirection ?? 'not detected';
}
