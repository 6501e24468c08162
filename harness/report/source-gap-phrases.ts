// The summary's answer to the question as asked, worded (pure): which
// comparisons hold the runtime fixed (both paths on one runtime stack, so the
// difference is how the image is read), each side's cold spans (a pull is
// split only where its launch marks a step inside it), and the paragraph on
// why the saving differs from the source. Every number comes from
// analysis.json (its `sourceGap` findings: analysis/source-gap-facts.ts, and
// its cells) or, for the source's share, from the source's own finding; each
// sentence is one named phrase below.
import type { AnalysisResult } from '../analysis/analysis-result.js';
import type { AnalysisWithSourceGap, ColdSpansFact, OnDemandReadFact } from '../analysis/source-gap-facts.js';
import type { FindingVerdict } from './source-findings.js';
import { fixed } from '../publish/format-number.js';

export interface GapFormat {
  /** A duration in ms, without the unit. */
  ms: (v: number) => string;
  pct: (v: number) => string;
}

const mb = (bytes: number): string => fixed(bytes / 1e6, 1);

/**
 * For each key pair (p, q) whose paths run on different stacks, the configured
 * comparison (r, q) with r on q's stack: the same runtime on both sides. In the
 * order of the key pairs, each once.
 */
export function runtimeHeldFixedPairs(
  a: AnalysisResult,
  pairs: readonly (readonly [string, string])[],
  stackOf: (path: string) => string | null,
): [string, string][] {
  const out: [string, string][] = [];
  for (const [p, q] of pairs) {
    const sq = stackOf(q);
    if (sq === null || stackOf(p) === sq) continue;
    const r = a.differences.find((d) => d.metric === 'ready' && d.b === q && d.a !== p && stackOf(d.a) === sq)?.a;
    if (r && !out.some(([x, y]) => x === r && y === q) && !pairs.some(([x, y]) => x === r && y === q)) out.push([r, q]);
  }
  return out;
}

/** "Cold span P50s, ms: shell oci-full copy 363.6, unpack 2697.3, to Ready 45.2; shell docker pull 2345.6, to Ready 466.0; numpy …." */
export function coldSpansSentence(a: AnalysisWithSourceGap, cohorts: readonly string[], paths: readonly string[], f: GapFormat): string | null {
  const facts = cohorts.flatMap((cohort) =>
    paths.map((p) => a.sourceGap?.coldSpans.find((s) => s.cohort === cohort && s.path === p)).filter((s): s is ColdSpansFact => s !== undefined),
  );
  if (!facts.length) return null;
  return `Cold span P50s, ms: ${facts.map((s) => `${s.cohort} ${s.path} ${s.spans.map((x) => `${x.name} ${f.ms(x.p50Ms)}`).join(', ')}`).join('; ')}.`;
}

/** A side whose launch marks one step before Ready, beside one that marks more: its step is not split into parts. */
export function unsplitStepSentence(a: AnalysisWithSourceGap, paths: readonly string[]): string | null {
  const facts = (a.sourceGap?.coldSpans ?? []).filter((s) => paths.includes(s.path));
  const most = Math.max(0, ...facts.map((s) => s.spans.length));
  const single = [...new Set(facts.filter((s) => s.spans.length === 2 && most > 2).map((s) => `${s.path}'s ${s.spans[0]!.name}`))];
  if (!single.length) return null;
  return single.length === 1
    ? `${single[0]} is one span: nothing marks a step inside it.`
    : `${single.join(' and ')} are one span each: nothing marks a step inside them.`;
}

/** The source's share of the complete transfer that its on-demand path read, from its content-reduction finding of the cohort. */
function sourceShare(verdicts: readonly FindingVerdict[], cohort: string): { share: number; a: string; b: string } | null {
  const v = verdicts.find(
    (x) =>
      x.finding.kind === 'content-reduction' && x.finding.cohort === cohort && (x.finding.state ?? 'cold') === 'cold' && typeof x.finding.value === 'number',
  );
  return v && v.finding.a && v.finding.b ? { share: 1 - v.finding.value!, a: v.finding.a, b: v.finding.b } : null;
}

/**
 * "Cold numpy, lazy read 75.6 MB, 79.5% of docker's content bytes (gvisor-lazy 98.3%; the source's lazy 31.9%);
 * bytes read over its Ready P50 of 2511.1 ms: 30.1 MB/s, a lower bound of the read rate; its warm Ready P50 is 94.5% shorter."
 * Each figure is worded as what it is: the share is of bytes; the rate is the bytes over the whole Ready time
 * (the reads fill only part of it, so their own rate is higher), not a measured read throughput; the last is a
 * share of Ready time, the part of the cold P50 the warm launch does not spend.
 */
export function readSentence(facts: readonly OnDemandReadFact[], verdicts: readonly FindingVerdict[], f: GapFormat): string | null {
  const [first, ...others] = facts;
  if (!first) return null;
  const src = sourceShare(verdicts, first.cohort);
  const beside = [...others.map((o) => `${o.path} ${f.pct(o.shareOfFull)}${o.fullPath === first.fullPath ? '' : ` of ${o.fullPath}'s`}`)];
  if (src) beside.push(`the source's ${src.b} ${f.pct(src.share)}${src.a === first.fullPath ? '' : ` of ${src.a}'s`}`);
  return (
    `Cold ${first.cohort}, ${first.path} read ${mb(first.contentBytes)} MB, ${f.pct(first.shareOfFull)} of ${first.fullPath}'s content bytes` +
    (beside.length ? ` (${beside.join('; ')})` : '') +
    `; bytes read over its Ready P50 of ${f.ms(first.readyP50Ms)} ms: ${fixed(first.bytesPerS / 1e6, 1)} MB/s, a lower bound of the read rate` +
    (first.coldOnlyShare !== null ? `; its warm Ready P50 is ${f.pct(first.coldOnlyShare)} shorter.` : '.')
  );
}

/**
 * The paragraph: per cohort, what the on-demand paths (the second side of the
 * key pairs, in their order) read against the complete transfer and at what
 * rate; titled against the source when the source has a content finding.
 */
export function sourceGapParagraph(
  a: AnalysisWithSourceGap,
  verdicts: readonly FindingVerdict[],
  cohorts: readonly string[],
  onDemandPaths: readonly string[],
  f: GapFormat,
): string | null {
  const reads = a.sourceGap?.reads ?? [];
  const sentences: string[] = [];
  for (const cohort of cohorts) {
    const facts = onDemandPaths.map((p) => reads.find((r) => r.cohort === cohort && r.path === p)).filter((r): r is OnDemandReadFact => r !== undefined);
    const s = readSentence(facts, verdicts, f);
    if (s) sentences.push(s);
  }
  if (!sentences.length) return null;
  const title = cohorts.some((c) => sourceShare(verdicts, c)) ? 'Why it differs from the source.' : 'What the on-demand reads cost.';
  return `**${title}** ${sentences.join(' ')}`;
}
