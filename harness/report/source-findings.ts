// The source report's headline findings set against this run, as the report
// words them (pure). The verdicts are the analysis's (analysis/source-verdicts.ts,
// analysis.json findings.sources): this file only turns each into table text,
// the source's number(s) and this run's.
import { intervalSign, judgeSource, judgeSources, type SourceFinding, type SourceReference, type SourceVerdict } from '../analysis/source-verdicts.js';
import { cellOrderNote, differenceOrderNote } from './order-effect-notes.js';
import type { AnalysisResult } from '../analysis/analysis-result.js';
import { fixed, grouped } from '../publish/format-number.js';
import { msIntervalText } from './interval-text.js';
import type { SourceReading } from '../config/source-reading.js';

export {
  sourceReference,
  type FindingKind,
  type SourceFinding,
  type SourceReference,
  type Verdict,
  type Direction,
  type Magnitude,
} from '../analysis/source-verdicts.js';

export interface FindingVerdict extends SourceVerdict {
  /** The source's number(s), as text. */
  source: string;
  /** This run's number(s), as text (what is missing, when not measured). */
  ours: string;
}

const ms = (v: number): string => `${fixed(v, 1)} ms`;
const pct = (v: number): string => `${fixed(v * 100, 1)}%`;
const directionText = (s: number, a: string, b: string): string => (s === 0 ? 'no difference detected' : `${s < 0 ? a : b} has the lower median`);

/** This run's side of a verdict in words. */
function oursText(v: SourceVerdict, an: AnalysisResult): string {
  const f = v.finding;
  const a = f.a ?? '';
  const b = f.b ?? '';
  const m = v.measured;
  if (!m) return v.missing ?? '';
  switch (m.kind) {
    case 'p50': {
      const c = an.cells.find((x) => x.cohort === f.cohort && x.path === a && x.state === f.state && x.metric === f.metric)!;
      return (
        `P50 ${ms(m.p50Ms)} (n=${m.n})` +
        (c.split ? `; the launches form ${c.groups.length} separate clusters, so this P50 is no typical launch` : '') +
        cellOrderNote(c)
      );
    }
    case 'difference':
      return (
        `${a} − ${b} ${ms(m.observedMs)}, ${fixed(m.confidence * 100, 0)}% CI ${msIntervalText(m.lowMs, m.highMs, m.seedSpreadMs, 1)} ms: ${directionText(m.detectedSign, a, b)}` +
        differenceOrderNote(an, { cohort: f.cohort, state: f.state ?? '', metric: f.metric, a, b })
      );
    case 'dominance':
      return m.holds
        ? `every ${a} launch (n=${m.n}) shorter than every ${b} launch`
        : m.reverse
          ? `the reverse: every ${b} launch shorter than every ${a} launch`
          : `the ${a} and ${b} distributions overlap`;
    case 'content-reduction':
      return `${grouped(m.aBytes)} vs ${grouped(m.bBytes)} bytes: ${m.reduction >= 0 ? `${pct(m.reduction)} less` : `${pct(-m.reduction)} more`} for ${b}`;
  }
}

/** A verdict of the analysis with its two texts. */
function worded(v: SourceVerdict, an: AnalysisResult): FindingVerdict {
  return { ...v, source: sourceText(v.finding), ours: oursText(v, an) };
}

/** One finding judged by the analysis's rule and worded (for a finding the analysis was not given). */
export function judgeFinding(f: SourceFinding, an: AnalysisResult): FindingVerdict {
  return worded(judgeSource(f, an), an);
}

/** "held", "changed", "lost", "gained", or "-": the direction part as a table shows it. */
export function directionCell(v: FindingVerdict): string {
  return v.direction ?? '-';
}

/** "×0.80–×1.25": a finding's magnitude band as the report writes it. */
export function bandText(toleranceRatio: number): string {
  return `×${fixed(1 / toleranceRatio, 2)}–×${fixed(toleranceRatio, 2)}`;
}

/** Why a magnitude has no size to compare, from its direction part. */
const notJudgedText = (v: FindingVerdict): string =>
  v.finding.sizeNotComparable && v.direction === 'held'
    ? `not comparable: ${v.finding.sizeNotComparable}`
    : v.direction === 'held'
      ? 'not judged: neither run detects an effect'
      : 'not judged: the directions differ';

/** A ratio to 2 decimals (1 from 10 on), or to 3 where 2 would print an edge of the band for a ratio the rule put outside it. */
function ratioDigits(ratio: number, held: boolean, toleranceRatio: number): string {
  const digits = Math.abs(ratio) < 10 ? 2 : 1;
  const shown = fixed(ratio, digits);
  const onEdge = shown === fixed(toleranceRatio, digits) || shown === fixed(1 / toleranceRatio, digits);
  return fixed(ratio, onEdge && !held ? digits + 1 : digits);
}

/**
 * The magnitude part as a table shows it: "held: ×0.98 the source's (band ×0.80–×1.25)",
 * "×4.57 the source's, outside ×0.80–×1.25", "not judged: …", or "-". The analysis decides
 * (analysis/source-verdicts.ts magnitudeFinding); overlapping intervals are never called a match.
 */
export function magnitudeCell(v: FindingVerdict): string {
  const m = v.magnitude;
  if (!m) return '-';
  if (m.judged === false) return notJudgedText(v);
  const band = bandText(v.finding.toleranceRatio);
  const times = m.ratio === null ? null : `×${ratioDigits(m.ratio, m.held, v.finding.toleranceRatio)} the source's`;
  if (m.held) return times ? `held: ${times} (band ${band})` : 'held';
  return times ? `${times}, outside ${band}` : 'differs';
}

/** The verdict as a table shows it: "agrees", "**differs**", "not comparable: <reason>", "not measured". */
export function verdictCell(v: FindingVerdict): string {
  if (v.verdict === 'not comparable') return `not comparable: ${v.finding.notComparable!.trim().replace(/\.$/, '')}`;
  if (v.verdict === 'agrees' && v.finding.sizeNotComparable) return 'agrees in direction';
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
        : // without the source's point estimate, the magnitude is taken against its interval's midpoint (analysis/source-verdicts.ts): said here
          `${f.value === undefined ? `midpoint ${ms((f.low + f.high) / 2)} (no point estimate given), ` : `${ms(f.value)}, `}95% CI [${fixed(f.low, 1)}, ${fixed(f.high, 1)}] ms: ${directionText(intervalSign(f.low, f.high), a, b)}`;
    case 'dominance':
      return `every ${a} launch shorter than every ${b} launch`;
    case 'content-reduction':
      return f.value === undefined ? '-' : `${pct(f.value)} less for ${b}`;
  }
  return '-';
}

/** The analysis's source verdicts (analysis.json findings.sources), worded; judged here only for an analysis without them. */
export function judgeFindings(ref: SourceReference | null, an: AnalysisResult | null): FindingVerdict[] {
  if (!ref || !an) return [];
  return (an.findings?.sources ?? judgeSources(ref, an)).map((v) => worded(v, an));
}
