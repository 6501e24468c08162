// Pure: the source report's headline findings (experiment.reference) judged
// against this run, in the analysis, so that analysis.json holds the verdicts
// the report states (schemas/analysis-findings.schema.json). Each verdict has
// two parts: the direction (did the same path win? in the words of
// direction-status.ts) and the magnitude (does this run's effect over the
// source's lie within the finding's band, [1/tolerance_ratio, tolerance_ratio]?
// judged only where both runs have a size to compare; overlapping intervals
// or a shared sign are never a match). A
// finding agrees only when both held; one that report.source names not
// comparable is 'not comparable' with its reason, and so is a P50 of a path
// report.source.runtime_differs names, while a difference naming such a path
// is judged in direction only (its size is not compared); one this run cannot judge
// (no such cell) is 'not measured'. Every difference finding naming a path
// that has a stand-in (report.source.stand_ins) is judged a second time with
// the stand-in, as '<id> (<stand-in>)'. The report words these verdicts
// (report/source-findings.ts); it decides none.
import { directionStatus } from './direction-status.js';
import type { BytesResult, CellStatistics, DifferenceResult, DominanceResult } from './analysis-result.js';
import type { SourceReading } from '../config/source-reading.js';
import type { Direction, FindingKind, Magnitude, Measured, SourceFinding, SourceReference, SourceVerdict, Verdict } from './finding-types.js';

export type { Direction, FindingKind, Magnitude, Measured, SourceFinding, SourceReference, SourceVerdict, Verdict } from './finding-types.js';

/** What a source verdict reads of the analysis. */
export interface JudgedAnalysis {
  cells: readonly CellStatistics[];
  differences: readonly DifferenceResult[];
  dominance: readonly DominanceResult[];
  bytes: readonly BytesResult[];
}

/** experiment.reference as validated by the schema (defaults applied here again); null without a reference. */
function parseReference(raw: unknown): SourceReference | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  const findings = Array.isArray(r['findings']) ? (r['findings'] as Record<string, unknown>[]) : [];
  const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  return {
    source: String(r['source'] ?? ''),
    setup: str(r['setup']) ?? null,
    findings: findings.map((f) => ({
      id: String(f['id']),
      cohort: String(f['cohort']),
      state: str(f['state']) as SourceFinding['state'],
      metric: (str(f['metric']) ?? 'ready') as SourceFinding['metric'],
      kind: String(f['kind']) as FindingKind,
      a: str(f['a']),
      b: str(f['b']),
      value: num(f['value']),
      low: num(f['low']),
      high: num(f['high']),
      toleranceRatio: num(f['tolerance_ratio']) ?? 1.25,
      statement: String(f['statement'] ?? ''),
      notComparable: null,
    })),
  };
}

/** experiment.reference read as report.source says (not comparable reasons, stand-in twins). */
export function sourceReference(raw: unknown, reading: SourceReading = { standIns: {}, notComparable: {}, runtimeDiffers: {} }): SourceReference | null {
  const ref = parseReference(raw);
  if (!ref) return null;
  // one rule for every finding naming a path on another runtime than the source's
  const differs = (f: SourceFinding): string | null =>
    [f.a, f.b].map((p) => (p ? reading.runtimeDiffers?.[p] : undefined)).find((r) => r !== undefined) ?? null;
  const readAs = (f: SourceFinding): SourceFinding => {
    const why = differs(f);
    return {
      ...f,
      notComparable: reading.notComparable[f.id] ?? (why && f.kind === 'p50' ? `${why}, so their start-up times measure different things` : null),
      sizeNotComparable: why && f.kind === 'difference' ? why : null,
    };
  };
  const findings = ref.findings.flatMap((f) => {
    const own = readAs(f);
    if (f.kind !== 'difference') return [own];
    const swap = (p: string | undefined): string | undefined => (p !== undefined && reading.standIns[p] ? reading.standIns[p] : p);
    const twin = {
      ...f,
      id: `${f.id} (${[f.a, f.b]
        .map((p) => (p && reading.standIns[p]) ?? '')
        .filter(Boolean)
        .join(', ')})`,
      a: swap(f.a),
      b: swap(f.b),
    };
    if (twin.a === f.a && twin.b === f.b) return [own];
    return [own, readAs(twin)];
  });
  return { ...ref, findings };
}

/** The sign of an interval: 1 above 0, -1 below, 0 across. */
export const intervalSign = (low: number, high: number): -1 | 0 | 1 => (low > 0 ? 1 : high < 0 ? -1 : 0);

/** The band a magnitude ratio (this run over the source) must lie in: [1 / tolerance, tolerance]. */
export const magnitudeBand = (toleranceRatio: number): [number, number] => [1 / toleranceRatio, toleranceRatio];

/**
 * The magnitude finding: with a size on both sides (judged), it holds when this run's figure over the
 * source's lies within the finding's band; without one (the directions differ, or neither run detects
 * an effect) it is not judged and does not hold, and no ratio is given.
 */
export function magnitudeFinding(ratio: number | null, toleranceRatio: number, judged: boolean, overlap: boolean | null = null): Magnitude {
  const band = magnitudeBand(toleranceRatio);
  if (!judged) return { held: false, judged: false, ratio: null, band, overlap };
  const held = ratio !== null && Number.isFinite(ratio) && ratio >= band[0] && ratio <= band[1];
  return { held, judged: true, ratio, band, overlap };
}

/** agrees when the direction held (or has no part) and the magnitude held (or has no size to compare). */
function judged(f: SourceFinding, direction: Direction | null, magnitude: Magnitude | null, measured: Measured): SourceVerdict {
  const verdict: Verdict = f.notComparable
    ? 'not comparable'
    : (direction === null || direction === 'held') && (magnitude === null || !magnitude.judged || magnitude.held)
      ? 'agrees'
      : 'differs';
  return { finding: f, verdict, direction, magnitude, measured, missing: null };
}

/** The cell, difference, dominance or byte counts a finding names, either order of a and b. */
export function judgeSource(f: SourceFinding, an: JudgedAnalysis): SourceVerdict {
  const none = (missing: string): SourceVerdict => ({ finding: f, verdict: 'not measured', direction: null, magnitude: null, measured: null, missing });
  const a = f.a ?? '';
  const b = f.b ?? '';
  const pair = (x: { cohort: string; state: string; metric: string; a: string; b: string }): boolean =>
    x.cohort === f.cohort && x.state === f.state && x.metric === f.metric && ((x.a === a && x.b === b) || (x.a === b && x.b === a));
  switch (f.kind) {
    case 'p50': {
      const c = an.cells.find((x) => x.cohort === f.cohort && x.path === a && x.state === f.state && x.metric === f.metric);
      if (!c || c.p50Ms === null || f.value === undefined) return none(`no ${f.state} ${a} ${f.metric} cell`);
      const ratio = f.value > 0 ? c.p50Ms / f.value : null;
      return judged(f, null, magnitudeFinding(ratio, f.toleranceRatio, true), { kind: 'p50', p50Ms: c.p50Ms, n: c.n });
    }
    case 'difference': {
      const d = an.differences.find(pair);
      if (!d || d.observedMs === null || d.lowMs === null || d.highMs === null || f.low === undefined || f.high === undefined)
        return none(`no ${f.state} ${a} − ${b} ${f.metric} difference`);
      const [obs, low, high] = d.a === a ? [d.observedMs, d.lowMs, d.highMs] : [-d.observedMs, -d.highMs, -d.lowMs];
      // the detected rule of this run (two-level and, with 3+ sessions, between-session intervals), against the source's interval
      const ours = (d.detected ? Math.sign(obs) : 0) as -1 | 0 | 1;
      const direction = directionStatus(intervalSign(f.low, f.high), ours);
      const centre = f.value ?? (f.low + f.high) / 2;
      const overlap = low <= f.high && f.low <= high;
      // a size to compare only where both runs detect the same direction: otherwise one of them is no effect, or the other way
      const sized = direction === 'held' && ours !== 0 && centre !== 0 && !f.sizeNotComparable;
      return judged(f, direction, magnitudeFinding(sized ? obs / centre : null, f.toleranceRatio, sized, overlap), {
        kind: 'difference',
        observedMs: obs,
        lowMs: low,
        highMs: high,
        confidence: d.confidence,
        detectedSign: ours,
        seedSpreadMs: d.seedSpreadMs ?? null,
      });
    }
    case 'dominance': {
      const d = an.dominance.find(pair);
      if (!d || d.result === 'empty') return none(`no ${f.state} ${a}/${b} ${f.metric} cells`);
      const holds = (d.a === a && d.result === 'a-precedes-b') || (d.b === a && d.result === 'b-precedes-a');
      const reverse = (d.a === a && d.result === 'b-precedes-a') || (d.b === a && d.result === 'a-precedes-b');
      return judged(f, holds ? 'held' : reverse ? 'changed' : 'lost', null, { kind: 'dominance', n: d.a === a ? d.nA : d.nB, holds, reverse });
    }
    case 'content-reduction': {
      const ca = an.bytes.find((x) => x.cohort === f.cohort && x.path === a && x.state === f.state)?.contentBytes;
      const cb = an.bytes.find((x) => x.cohort === f.cohort && x.path === b && x.state === f.state)?.contentBytes;
      if (!ca || !cb || ca.median === null || cb.median === null || ca.median === 0) return none(`no ${f.state} ${a}/${b} content counts`);
      const r = 1 - cb.median / ca.median;
      const v = f.value ?? 0;
      const same = v > 0 ? r > 0 : r <= 0;
      return judged(f, same ? 'held' : 'changed', magnitudeFinding(v !== 0 ? r / v : null, f.toleranceRatio, same), {
        kind: 'content-reduction',
        aBytes: ca.median,
        bBytes: cb.median,
        reduction: r,
      });
    }
  }
  return none(`unknown kind ${String(f.kind)}`);
}

export function judgeSources(ref: SourceReference | null, an: JudgedAnalysis): SourceVerdict[] {
  return ref ? ref.findings.map((f) => judgeSource(f, an)) : [];
}
