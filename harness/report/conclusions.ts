// Generated conclusion sentences: each states only what a statistic supports
// (a P50 or cluster medians, a dominance, a bootstrap interval, a byte count).
// Failed launches are left out of every statistic, so every per-cell sentence
// says how many launches it covers and how many failed, and why; a dominance
// or a difference over cells with failures says it holds for valid launches only.
import type { AnalysisResult, CellStatistics, DifferenceResult } from '../analysis/analysis-result.js';
import { relativeReduction } from '../stats/byte-summary.js';
import { fixed, grouped } from './format-number.js';
import type { ReportOptions } from './report-options.js';
import { cellOrderNote, differenceOrderNote } from './order-effect-notes.js';

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

/** "P50 183.7 ms" or "clusters 120.0 ms (60%) and 250.1 ms (40%)". */
export function centreText(c: CellStatistics, f: Formatters): string {
  if (c.p50Ms === null) return 'no valid observations';
  if (!c.split) return `a P50 of ${f.ms(c.p50Ms)}`;
  const parts = c.groups.map((g) => `${f.ms(g.medianMs)} (${f.pct(g.share)})`);
  return `separate clusters with medians ${parts.length > 2 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts.join(' and ')}`;
}

/**
 * Short label of a failure reason for per-cell sentences: timeouts are
 * "timeout", the per-launch marker text is dropped (so equal causes group),
 * long text is shortened. The failures table keeps the full reasons.
 */
export function reasonLabel(reason: string): string {
  if (/^timed out\b/.test(reason)) return 'timeout';
  const r = reason.replace(/marker line "[^"]*"/g, 'marker line').trim();
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

/**
 * '' when neither cell of a comparison has a failed launch; otherwise the
 * caveat that the failed launches (maybe the slowest) are not among the values compared.
 */
export function failureCaveat(a: AnalysisResult, cohort: string, state: string, metric: string, paths: string[]): string {
  const failed = paths.map((p) => cellOf(a, cohort, p, state, metric)).filter((c): c is CellStatistics => !!c && c.failures > 0);
  if (failed.length === 0) return '';
  return `failed launches are not among them (${failed.map((c) => `${state} ${c.path}: ${failedText(a, c)}`).join('; ')}), so this holds for the launches that succeeded only`;
}

/** Formal rounds of a comparison: the larger launch count of its two cells (one launch per round). */
export function comparisonRounds(a: AnalysisResult, d: DifferenceResult): number {
  const la = cellOf(a, d.cohort, d.a, d.state, d.metric)?.launches ?? d.rounds;
  const lb = cellOf(a, d.cohort, d.b, d.state, d.metric)?.launches ?? d.rounds;
  return Math.max(la, lb, d.rounds);
}

/**
 * A difference of medians with its interval. The interval supports only which
 * path has the lower median, not that one is faster launch by launch. With
 * totalRounds, says how many rounds were left out because a launch failed.
 */
export function differenceText(d: DifferenceResult, f: Formatters, metricName: string, totalRounds?: number): string {
  const left = totalRounds !== undefined && totalRounds > d.rounds ? totalRounds - d.rounds : 0;
  const over =
    totalRounds === undefined
      ? ''
      : ` over ${d.rounds} of ${totalRounds} paired rounds` +
        (left > 0 ? ` (${left} left out because a launch of ${d.a} or ${d.b} failed or has no value)` : '');
  if (d.observedMs === null || d.lowMs === null || d.highMs === null) {
    return `no ${d.state} ${metricName} difference between ${d.a} and ${d.b} can be computed (no complete round${totalRounds === undefined ? '' : ` of ${totalRounds}`})`;
  }
  const ci = `${fixed(d.confidence * 100, 0)}% CI [${f.ms(d.lowMs).replace(' ms', '')}, ${f.ms(d.highMs).replace(' ms', '')}] ms`;
  const head = `${d.a} minus ${d.b} ${d.state}-client ${metricName} median difference ${f.ms(d.observedMs)}, ${ci}${over}`;
  if (!d.detected) {
    if (!twoLevelContainsZero(d) && d.sessionLowMs !== null && d.sessionHighMs !== null)
      return `${head}, but the sessions disagree in size: the between-session interval [${f.ms(d.sessionLowMs).replace(' ms', '')}, ${f.ms(d.sessionHighMs).replace(' ms', '')}] ms contains 0, so no difference is established`;
    return `${head}: the interval contains 0, no difference is detected`;
  }
  const lower = d.highMs < 0 ? d.a : d.b;
  return `${head}: ${lower} has the lower median ${metricName}`;
}

/** True when the two-level bootstrap interval of d contains 0 (or there is none). */
export function twoLevelContainsZero(d: DifferenceResult): boolean {
  return d.lowMs === null || d.highMs === null || !(d.lowMs > 0 || d.highMs < 0);
}

/** Detected by the two-level interval but not by the between-session one: the sessions disagree in size. */
export function sessionsDisagreeInSize(d: DifferenceResult): boolean {
  return !d.detected && d.observedMs !== null && !twoLevelContainsZero(d);
}

export function cohortConclusions(a: AnalysisResult, cohort: string, pathOrder: string[], stateOrder: string[], f: Formatters): string[] {
  const out: string[] = [];
  const ready = a.cells.filter((c) => c.cohort === cohort && c.metric === 'ready');
  for (const state of stateOrder) {
    const cells = pathOrder.map((p) => ready.find((c) => c.path === p && c.state === state)).filter((c): c is CellStatistics => !!c);
    if (cells.length === 0) continue;
    out.push(`${cap(state)}-client Ready: ${cells.map((c) => `${c.path} has ${centreText(c, f)} (${countText(a, c)})${cellOrderNote(c)}`).join('; ')}.`);
    for (const d of a.dominance.filter((x) => x.cohort === cohort && x.state === state && x.metric === 'ready')) {
      if (d.result !== 'a-precedes-b' && d.result !== 'b-precedes-a') continue;
      const [first, second, n] = d.result === 'a-precedes-b' ? [d.a, d.b, d.nA] : [d.b, d.a, d.nB];
      const caveat = failureCaveat(a, cohort, state, 'ready', [d.a, d.b]);
      out.push(
        caveat
          ? `Each of the ${n} valid ${state} ${first} Ready values is shorter than every valid ${state} ${second} one, but ${caveat}${differenceOrderNote(a, d)}.`
          : `Each of the ${n} ${state} ${first} Ready values is shorter than every ${state} ${second} one${differenceOrderNote(a, d)}.`,
      );
    }
  }
  for (const d of a.differences.filter((x) => x.cohort === cohort && x.metric === 'ready')) {
    out.push(`Paired-round bootstrap: ${differenceText(d, f, 'Ready', comparisonRounds(a, d))}${differenceOrderNote(a, d)}.`);
  }
  const failures = ready.reduce((s, c) => s + c.failures, 0);
  out.push(
    failures === 0
      ? 'No formal launch failed.'
      : `${failures} formal ${failures === 1 ? 'launch' : 'launches'} failed; ${failures === 1 ? 'it is' : 'they are'} counted but left out of every P50, cluster, dominance and interval above, so the slowest launches may be missing from them.`,
  );
  return out;
}

/** Content transfer comparison per state; a count that varies within its cell is shown as its range and said so. */
export function contentSentences(a: AnalysisResult, cohort: string, stateOrder: string[], f: Formatters): string[] {
  const out: string[] = [];
  for (const d of a.differences.filter((x) => x.cohort === cohort && x.metric === 'ready')) {
    for (const state of stateOrder.filter((s) => s === d.state)) {
      const ba = a.bytes.find((b) => b.cohort === cohort && b.path === d.a && b.state === state)?.contentBytes;
      const bb = a.bytes.find((b) => b.cohort === cohort && b.path === d.b && b.state === state)?.contentBytes;
      if (!ba || !bb || ba.n === 0 || bb.n === 0) continue;
      const amount = (b: typeof ba): string => (b.identical ? grouped(b.median!) : `${grouped(b.min!)}–${grouped(b.max!)}`);
      const r = relativeReduction(ba.median, bb.median);
      const rel =
        r === null ? '' : r > 0 ? `, ${f.pct(r)} less for ${d.b} at the medians` : r < 0 ? `, ${f.pct(-r)} more for ${d.b} at the medians` : ', the same';
      const varying = [ba.identical ? null : d.a, bb.identical ? null : d.b].filter((x): x is string => x !== null);
      const within = varying.length ? `varies within the ${varying.join(' and ')} cell${varying.length > 1 ? 's' : ''}` : 'identical within each cell';
      const caveat = failureCaveat(a, cohort, state, 'ready', [d.a, d.b]);
      out.push(
        `${cap(state)} content is ${amount(ba)} bytes for ${d.a} versus ${amount(bb)} bytes for ${d.b}${ba.identical && bb.identical ? rel.replace(' at the medians', '') : rel} (${within})${caveat ? `; ${caveat}` : ''}.`,
      );
    }
  }
  return out;
}

export function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
