// Generated conclusion sentences: each states only what a statistic supports
// (a P50 or cluster medians, a dominance, a bootstrap interval, a byte count).
import type { AnalysisResult, CellStatistics, DifferenceResult } from '../analysis/analysis-result.js';
import { relativeReduction } from '../stats/byte-summary.js';
import { fixed, grouped } from './format-number.js';
import type { ReportOptions } from './report-options.js';

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
  return `separate clusters with medians ${c.groups.map((g) => `${f.ms(g.medianMs)} (${f.pct(g.share)})`).join(' and ')}`;
}

export function differenceText(d: DifferenceResult, f: Formatters, metricName: string): string {
  if (d.observedMs === null || d.lowMs === null || d.highMs === null) {
    return `no ${d.state} ${metricName} difference between ${d.a} and ${d.b} can be computed (no complete round)`;
  }
  const ci = `${fixed(d.confidence * 100, 0)}% CI [${f.ms(d.lowMs).replace(' ms', '')}, ${f.ms(d.highMs).replace(' ms', '')}] ms`;
  const head = `${d.a} minus ${d.b} ${d.state}-client ${metricName} median difference ${f.ms(d.observedMs)}, ${ci}`;
  if (!d.detected) return `${head}: the interval contains 0, no difference is detected`;
  const faster = d.highMs < 0 ? d.a : d.b;
  return `${head}: ${faster} is faster`;
}

export function cohortConclusions(a: AnalysisResult, cohort: string, pathOrder: string[], stateOrder: string[], f: Formatters): string[] {
  const out: string[] = [];
  const ready = a.cells.filter((c) => c.cohort === cohort && c.metric === 'ready');
  for (const state of stateOrder) {
    const cells = pathOrder.map((p) => ready.find((c) => c.path === p && c.state === state)).filter((c): c is CellStatistics => !!c);
    if (cells.length === 0) continue;
    out.push(`${cap(state)}-client Ready: ${cells.map((c) => `${c.path} has ${centreText(c, f)} (n=${c.n})`).join('; ')}.`);
    for (const d of a.dominance.filter((x) => x.cohort === cohort && x.state === state && x.metric === 'ready')) {
      if (d.result === 'a-precedes-b') out.push(`All ${d.nA} ${state} ${d.a} observations precede every ${state} ${d.b} observation.`);
      if (d.result === 'b-precedes-a') out.push(`All ${d.nB} ${state} ${d.b} observations precede every ${state} ${d.a} observation.`);
    }
  }
  for (const d of a.differences.filter((x) => x.cohort === cohort && x.metric === 'ready')) {
    out.push(`Paired-round bootstrap: ${differenceText(d, f, 'Ready')}.`);
  }
  const failures = a.cells.filter((c) => c.cohort === cohort && c.metric === 'ready').reduce((s, c) => s + c.failures, 0);
  out.push(failures === 0 ? 'No formal launch failed.' : `${failures} formal launches failed; they are counted, not analysed.`);
  return out;
}

/** Content transfer comparison for cold clients when both counts are identical within their cells. */
export function contentSentences(a: AnalysisResult, cohort: string, pathOrder: string[], stateOrder: string[], f: Formatters): string[] {
  const out: string[] = [];
  for (const d of a.differences.filter((x) => x.cohort === cohort && x.metric === 'ready')) {
    for (const state of stateOrder.filter((s) => s === d.state)) {
      const ba = a.bytes.find((b) => b.cohort === cohort && b.path === d.a && b.state === state)?.contentBytes;
      const bb = a.bytes.find((b) => b.cohort === cohort && b.path === d.b && b.state === state)?.contentBytes;
      if (!ba || !bb || ba.n === 0 || bb.n === 0 || !ba.identical || !bb.identical) continue;
      const r = relativeReduction(ba.median, bb.median);
      const rel = r === null ? '' : r > 0 ? `, ${f.pct(r)} less for ${d.b}` : r < 0 ? `, ${f.pct(-r)} more for ${d.b}` : ', the same';
      out.push(`${cap(state)} content is ${grouped(ba.median!)} bytes for ${d.a} versus ${grouped(bb.median!)} bytes for ${d.b}${rel} (identical within each cell).`);
    }
  }
  void pathOrder;
  return out;
}

export function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
