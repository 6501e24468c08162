// The source report's headline findings (experiment.reference in the pipeline
// file) set against this run (pure): each one agrees or differs, with both
// numbers. A finding this run cannot judge (no such cell) says so.
import { cellOrderNote, differenceOrderNote } from './order-effect-notes.js';
import type { AnalysisResult } from '../analysis/analysis-result.js';
import { fixed, grouped } from './format-number.js';

export type FindingKind = 'p50' | 'difference' | 'dominance' | 'content-reduction';

export interface SourceFinding {
  id: string;
  cohort: string;
  state?: 'cold' | 'warm';
  metric: 'ready' | 'completion';
  kind: FindingKind;
  a?: string;
  b?: string;
  value?: number;
  low?: number;
  high?: number;
  toleranceRatio: number;
  statement: string;
}

export interface SourceReference {
  source: string;
  setup: string | null;
  findings: SourceFinding[];
}

export type Verdict = 'agrees' | 'differs' | 'not measured';

export interface FindingVerdict {
  finding: SourceFinding;
  verdict: Verdict;
  /** The source's number(s), as text. */
  source: string;
  /** This run's number(s), as text. */
  ours: string;
}

/** experiment.reference as validated by the schema (defaults applied here again), or null. */
export function sourceReference(raw: unknown): SourceReference | null {
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
    })),
  };
}

const ms = (v: number): string => `${fixed(v, 1)} ms`;
const pct = (v: number): string => `${fixed(v * 100, 1)}%`;
const sign = (low: number, high: number): number => (low > 0 ? 1 : high < 0 ? -1 : 0);
const directionText = (s: number, a: string, b: string): string => (s === 0 ? 'no difference detected' : `${s < 0 ? a : b} has the lower median`);

export function judgeFinding(f: SourceFinding, an: AnalysisResult): FindingVerdict {
  const none = (why: string): FindingVerdict => ({ finding: f, verdict: 'not measured', source: sourceText(f), ours: why });
  const a = f.a ?? '';
  const b = f.b ?? '';
  switch (f.kind) {
    case 'p50': {
      const c = an.cells.find((x) => x.cohort === f.cohort && x.path === a && x.state === f.state && x.metric === f.metric);
      if (!c || c.p50Ms === null || f.value === undefined) return none(`no ${f.state} ${a} ${f.metric} cell`);
      const ratio = Math.max(c.p50Ms, f.value) / Math.min(c.p50Ms, f.value);
      return {
        finding: f,
        verdict: ratio <= f.toleranceRatio ? 'agrees' : 'differs',
        source: sourceText(f),
        ours:
          `P50 ${ms(c.p50Ms)} (n=${c.n}; ratio ${fixed(ratio, 2)}, tolerance ${fixed(f.toleranceRatio, 2)})` +
          (c.split ? `; the launches form ${c.groups.length} separate clusters, so this P50 is no typical launch` : '') +
          cellOrderNote(c),
      };
    }
    case 'difference': {
      const d = an.differences.find(
        (x) => x.cohort === f.cohort && x.state === f.state && x.metric === f.metric && ((x.a === a && x.b === b) || (x.a === b && x.b === a)),
      );
      if (!d || d.observedMs === null || d.lowMs === null || d.highMs === null || f.low === undefined || f.high === undefined)
        return none(`no ${f.state} ${a} − ${b} ${f.metric} difference`);
      const flip = d.a === a ? 1 : -1;
      const [obs, low, high] = flip === 1 ? [d.observedMs, d.lowMs, d.highMs] : [-d.observedMs, -d.highMs, -d.lowMs];
      const ours = sign(low, high);
      const theirs = sign(f.low, f.high);
      return {
        finding: f,
        verdict: ours === theirs ? 'agrees' : 'differs',
        source: sourceText(f),
        ours: `${a} − ${b} ${ms(obs)}, ${fixed(d.confidence * 100, 0)}% CI [${fixed(low, 1)}, ${fixed(high, 1)}] ms: ${directionText(ours, a, b)}${differenceOrderNote(an, d)}`,
      };
    }
    case 'dominance': {
      const d = an.dominance.find(
        (x) => x.cohort === f.cohort && x.state === f.state && x.metric === f.metric && ((x.a === a && x.b === b) || (x.a === b && x.b === a)),
      );
      if (!d || d.result === 'empty') return none(`no ${f.state} ${a}/${b} ${f.metric} cells`);
      const holds = (d.a === a && d.result === 'a-precedes-b') || (d.b === a && d.result === 'b-precedes-a');
      const reverse = (d.a === a && d.result === 'b-precedes-a') || (d.b === a && d.result === 'a-precedes-b');
      return {
        finding: f,
        verdict: holds ? 'agrees' : 'differs',
        source: sourceText(f),
        ours: holds
          ? `every ${a} launch (n=${d.a === a ? d.nA : d.nB}) shorter than every ${b} launch`
          : reverse
            ? `the reverse: every ${b} launch shorter than every ${a} launch`
            : `the ${a} and ${b} distributions overlap`,
      };
    }
    case 'content-reduction': {
      const ca = an.bytes.find((x) => x.cohort === f.cohort && x.path === a && x.state === f.state)?.contentBytes;
      const cb = an.bytes.find((x) => x.cohort === f.cohort && x.path === b && x.state === f.state)?.contentBytes;
      if (!ca || !cb || ca.median === null || cb.median === null || ca.median === 0) return none(`no ${f.state} ${a}/${b} content counts`);
      const r = 1 - cb.median / ca.median;
      const same = (f.value ?? 0) > 0 ? r > 0 : r <= 0;
      return {
        finding: f,
        verdict: same ? 'agrees' : 'differs',
        source: sourceText(f),
        ours: `${grouped(ca.median)} vs ${grouped(cb.median)} bytes: ${r >= 0 ? `${pct(r)} less` : `${pct(-r)} more`} for ${b}`,
      };
    }
  }
  return none(`unknown kind ${String(f.kind)}`);
}

export function sourceText(f: SourceFinding): string {
  const a = f.a ?? '';
  const b = f.b ?? '';
  switch (f.kind) {
    case 'p50':
      return f.value === undefined ? '-' : `P50 ${ms(f.value)}`;
    case 'difference':
      return f.low === undefined || f.high === undefined
        ? '-'
        : `${f.value === undefined ? '' : `${ms(f.value)}, `}95% CI [${fixed(f.low, 1)}, ${fixed(f.high, 1)}] ms: ${directionText(sign(f.low, f.high), a, b)}`;
    case 'dominance':
      return `every ${a} launch shorter than every ${b} launch`;
    case 'content-reduction':
      return f.value === undefined ? '-' : `${pct(f.value)} less for ${b}`;
  }
  return '-';
}

export function judgeFindings(ref: SourceReference | null, an: AnalysisResult | null): FindingVerdict[] {
  if (!ref || !an) return [];
  return ref.findings.map((f) => judgeFinding(f, an));
}
