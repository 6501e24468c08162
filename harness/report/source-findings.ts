// The source report's headline findings (experiment.reference in the pipeline
// file) set against this run (pure). Each verdict has two parts: the
// direction (did the same path win?) and the magnitude (do the intervals
// overlap; by what ratio do the effects differ?). A finding agrees only when
// both held; a finding the pipeline declares not comparable says why; one this
// run cannot judge (no such cell) says so.
import { directionStatus, type DirectionStatus } from '../analysis/direction-status.js';
import { cellOrderNote, differenceOrderNote } from './order-effect-notes.js';
import type { AnalysisResult } from '../analysis/analysis-result.js';
import { fixed, grouped } from '../publish/format-number.js';
import type { SourceReading } from '../publish/report-options.js';

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
  /** Why this run cannot answer the finding; the verdict is then 'not comparable'. */
  notComparable: string | null;
}

export interface SourceReference {
  source: string;
  setup: string | null;
  findings: SourceFinding[];
}

export type Verdict = 'agrees' | 'differs' | 'not measured' | 'not comparable';

/**
 * Direction, in the words `compare` uses (analysis/direction-status.ts,
 * docs/VERDICTS.md), the source as the reference: 'held' when both detect the
 * same direction (or both none, or the dominance holds here too), 'changed'
 * when they detect opposite directions, 'lost' when the source saw a
 * difference this run does not detect, 'gained' for the reverse.
 */
export type Direction = DirectionStatus;

export interface Magnitude {
  held: boolean;
  /** This run's effect over the source's (a difference, a P50, a reduction); null when either is 0 or unknown. */
  ratio: number | null;
  /** Differences: whether the two intervals overlap. */
  overlap: boolean | null;
}

export interface FindingVerdict {
  finding: SourceFinding;
  /** 'agrees' only when the direction and the magnitude both held. */
  verdict: Verdict;
  /** null where a finding has no direction (a P50) or nothing was measured. */
  direction: Direction | null;
  /** null where a finding has no magnitude (a dominance) or nothing was measured. */
  magnitude: Magnitude | null;
  /** The source's number(s), as text. */
  source: string;
  /** This run's number(s), as text. */
  ours: string;
}

/**
 * experiment.reference as validated by the schema (defaults applied here
 * again), read as report.source says: a finding it names not comparable
 * carries the reason, and every difference finding naming a path that has a
 * stand-in is judged a second time with the stand-in, as '<id> (<stand-in>)'.
 * Null without a reference.
 */
export function sourceReference(raw: unknown, reading: SourceReading = { standIns: {}, notComparable: {} }): SourceReference | null {
  const ref = parseReference(raw);
  if (!ref) return null;
  const findings = ref.findings.flatMap((f) => {
    const own = { ...f, notComparable: reading.notComparable[f.id] ?? null };
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
    return [own, { ...twin, notComparable: reading.notComparable[twin.id] ?? null }];
  });
  return { ...ref, findings };
}

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

const ms = (v: number): string => `${fixed(v, 1)} ms`;
const pct = (v: number): string => `${fixed(v * 100, 1)}%`;
const sign = (low: number, high: number): number => (low > 0 ? 1 : high < 0 ? -1 : 0);
const directionText = (s: number, a: string, b: string): string => (s === 0 ? 'no difference detected' : `${s < 0 ? a : b} has the lower median`);
const within = (x: number, y: number, tolerance: number): boolean => x > 0 && y > 0 && Math.max(x, y) / Math.min(x, y) <= tolerance;

/** The verdict from its two parts, and the finding's own "not comparable". */
function verdictOf(f: SourceFinding, direction: Direction | null, magnitude: Magnitude | null): Verdict {
  if (f.notComparable) return 'not comparable';
  return (direction === null || direction === 'held') && (magnitude === null || magnitude.held) ? 'agrees' : 'differs';
}

function judged(f: SourceFinding, direction: Direction | null, magnitude: Magnitude | null, ours: string): FindingVerdict {
  return { finding: f, verdict: verdictOf(f, direction, magnitude), direction, magnitude, source: sourceText(f), ours };
}

export function judgeFinding(f: SourceFinding, an: AnalysisResult): FindingVerdict {
  const none = (why: string): FindingVerdict => ({ finding: f, verdict: 'not measured', direction: null, magnitude: null, source: sourceText(f), ours: why });
  const a = f.a ?? '';
  const b = f.b ?? '';
  switch (f.kind) {
    case 'p50': {
      const c = an.cells.find((x) => x.cohort === f.cohort && x.path === a && x.state === f.state && x.metric === f.metric);
      if (!c || c.p50Ms === null || f.value === undefined) return none(`no ${f.state} ${a} ${f.metric} cell`);
      const ratio = f.value > 0 ? c.p50Ms / f.value : null;
      return judged(
        f,
        null,
        { held: within(c.p50Ms, f.value, f.toleranceRatio), ratio, overlap: null },
        `P50 ${ms(c.p50Ms)} (n=${c.n})` +
          (c.split ? `; the launches form ${c.groups.length} separate clusters, so this P50 is no typical launch` : '') +
          cellOrderNote(c),
      );
    }
    case 'difference': {
      const d = an.differences.find(
        (x) => x.cohort === f.cohort && x.state === f.state && x.metric === f.metric && ((x.a === a && x.b === b) || (x.a === b && x.b === a)),
      );
      if (!d || d.observedMs === null || d.lowMs === null || d.highMs === null || f.low === undefined || f.high === undefined)
        return none(`no ${f.state} ${a} − ${b} ${f.metric} difference`);
      const flip = d.a === a ? 1 : -1;
      const [obs, low, high] = flip === 1 ? [d.observedMs, d.lowMs, d.highMs] : [-d.observedMs, -d.highMs, -d.lowMs];
      // the detected rule of this run (two-level and, with 3+ sessions, between-session intervals), against the source's interval
      const ours = d.detected ? Math.sign(obs) : 0;
      const theirs = sign(f.low, f.high);
      const direction: Direction = directionStatus(theirs as -1 | 0 | 1, ours as -1 | 0 | 1);
      const centre = f.value ?? (f.low + f.high) / 2;
      const overlap = low <= f.high && f.low <= high;
      // a ratio of effects only where both runs detect the same direction: otherwise one of them is no effect, or the other way
      const ratio = direction === 'held' && ours !== 0 && centre !== 0 ? obs / centre : null;
      return judged(
        f,
        direction,
        { held: overlap, ratio, overlap },
        `${a} − ${b} ${ms(obs)}, ${fixed(d.confidence * 100, 0)}% CI [${fixed(low, 1)}, ${fixed(high, 1)}] ms: ${directionText(ours, a, b)}${differenceOrderNote(an, d)}`,
      );
    }
    case 'dominance': {
      const d = an.dominance.find(
        (x) => x.cohort === f.cohort && x.state === f.state && x.metric === f.metric && ((x.a === a && x.b === b) || (x.a === b && x.b === a)),
      );
      if (!d || d.result === 'empty') return none(`no ${f.state} ${a}/${b} ${f.metric} cells`);
      const holds = (d.a === a && d.result === 'a-precedes-b') || (d.b === a && d.result === 'b-precedes-a');
      const reverse = (d.a === a && d.result === 'b-precedes-a') || (d.b === a && d.result === 'a-precedes-b');
      return judged(
        f,
        holds ? 'held' : reverse ? 'changed' : 'lost',
        null,
        holds
          ? `every ${a} launch (n=${d.a === a ? d.nA : d.nB}) shorter than every ${b} launch`
          : reverse
            ? `the reverse: every ${b} launch shorter than every ${a} launch`
            : `the ${a} and ${b} distributions overlap`,
      );
    }
    case 'content-reduction': {
      const ca = an.bytes.find((x) => x.cohort === f.cohort && x.path === a && x.state === f.state)?.contentBytes;
      const cb = an.bytes.find((x) => x.cohort === f.cohort && x.path === b && x.state === f.state)?.contentBytes;
      if (!ca || !cb || ca.median === null || cb.median === null || ca.median === 0) return none(`no ${f.state} ${a}/${b} content counts`);
      const r = 1 - cb.median / ca.median;
      const v = f.value ?? 0;
      const same = v > 0 ? r > 0 : r <= 0;
      return judged(
        f,
        same ? 'held' : 'changed',
        { held: within(Math.abs(r), Math.abs(v), f.toleranceRatio), ratio: v !== 0 ? r / v : null, overlap: null },
        `${grouped(ca.median)} vs ${grouped(cb.median)} bytes: ${r >= 0 ? `${pct(r)} less` : `${pct(-r)} more`} for ${b}`,
      );
    }
  }
  return none(`unknown kind ${String(f.kind)}`);
}

/** "held", "changed", "lost", "gained", or "-": the direction part as a table shows it. */
export function directionCell(v: FindingVerdict): string {
  return v.direction ?? '-';
}

/** "held", "×13.0 the source's, intervals disjoint", or "-": the magnitude part as a table shows it. */
export function magnitudeCell(v: FindingVerdict): string {
  const m = v.magnitude;
  if (!m) return '-';
  const times = m.ratio === null ? '' : `×${fixed(m.ratio, Math.abs(m.ratio) < 10 ? 2 : 1)} the source's`;
  if (m.held) return times ? `held (${times})` : 'held';
  return [times || (m.overlap === null ? 'differs' : null), m.overlap === false ? 'intervals disjoint' : null].filter(Boolean).join(', ');
}

/** The verdict as a table shows it: "agrees", "**differs**", "not comparable: <reason>", "not measured". */
export function verdictCell(v: FindingVerdict): string {
  if (v.verdict === 'not comparable') return `not comparable: ${v.finding.notComparable!.trim().replace(/\.$/, '')}`;
  return v.verdict === 'differs' ? '**differs**' : v.verdict;
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
