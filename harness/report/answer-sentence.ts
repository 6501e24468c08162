// Pure prose: the report's answer to its question, first on the page. For
// each comparison report.answer names (default: the first one configured),
// cell by cell (cohort and state, Ready), the verdict the judge gave: which
// side reached Ready sooner, by what ratio of P50s, which cells are
// equivalent within the practical margin, which undecided (in the summary
// table's words: undecided, size uncertain, sessions disagree). Each cell is
// said once, with the P50 ratio a / b only; the intervals are the table's.
import type { AnalysisResult, DifferenceResult } from '../analysis/analysis-result.js';
import { fixed } from '../publish/format-number.js';
import { differenceVerdict, noDirectionText } from './difference-verdict-text.js';
import { outcomeWords } from './conclusions.js';
import { MAY_NOT_HOLD, mayNotHoldOnRerun } from './rerun-wording.js';

export interface AnswerCell {
  cohort: string;
  state: string;
}

const where = (d: DifferenceResult): string => `${d.state} ${d.cohort}`;

function ratioText(a: AnalysisResult, d: DifferenceResult): string {
  const p50 = (path: string) => a.cells.find((c) => c.cohort === d.cohort && c.state === d.state && c.metric === 'ready' && c.path === path)?.p50Ms;
  const pa = p50(d.a);
  const pb = p50(d.b);
  if (!pa || !pb) return '';
  const r = pa / pb;
  return ` (×${fixed(r, r >= 10 ? 1 : 2)}${mayNotHoldOnRerun(d) ? `; ${MAY_NOT_HOLD}` : ''})`;
}

const joined = (xs: readonly string[]): string => (xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

/** One sentence for a − b: the cells where each side reached Ready sooner, then the equivalent and the undecided; null when the run has no such difference. */
export function answerSentence(a: AnalysisResult, pair: { a: string; b: string }, cells: readonly AnswerCell[]): string | null {
  const diffs = cells
    .map((c) =>
      a.differences.find((d) => !d.factor && d.metric === 'ready' && d.cohort === c.cohort && d.state === c.state && d.a === pair.a && d.b === pair.b),
    )
    .filter((d): d is DifferenceResult => d !== undefined);
  if (!diffs.length) return null;
  const by = (v: string) => diffs.filter((d) => differenceVerdict(a, d).verdict === v);
  const parts: string[] = [];
  const bSooner = by('higher');
  const aSooner = by('lower');
  const ratios = `P50 ratio ${pair.a}/${pair.b}`;
  if (bSooner.length) parts.push(`${pair.b} reached Ready sooner than ${pair.a} in ${joined(bSooner.map((d) => `${where(d)}${ratioText(a, d)}`))} (${ratios})`);
  if (aSooner.length)
    parts.push(`${pair.a} sooner than ${pair.b} in ${joined(aSooner.map((d) => `${where(d)}${ratioText(a, d)}`))}${bSooner.length ? '' : ` (${ratios})`}`);
  const equivalent = by('equivalent');
  if (equivalent.length) parts.push(`equivalent within the practical margin in ${joined(equivalent.map(where))}`);
  // the rest in the table's own words (undecided, size uncertain, sessions disagree), so the two never differ
  const rest = by('undecided');
  const words = [...new Set(rest.map((d) => outcomeWords(d, noDirectionText(a, d))))];
  for (const w of words) parts.push(`${w} in ${joined(rest.filter((d) => outcomeWords(d, noDirectionText(a, d)) === w).map(where))}`);
  return `${pair.a} against ${pair.b}: ${parts.join('; ')}.`;
}

/** The answer paragraph: one sentence per comparison asked for (report.answer, else the first configured); null when none has data. */
export function answerParagraph(a: AnalysisResult, asked: readonly { a: string; b: string }[], cells: readonly AnswerCell[]): string | null {
  const firstConfigured = a.rules?.comparisons.find((c) => !c.factor);
  const pairs = asked.length ? asked : firstConfigured ? [{ a: firstConfigured.a, b: firstConfigured.b }] : [];
  const sentences = pairs.map((p) => answerSentence(a, p, cells)).filter((s): s is string => s !== null);
  return sentences.length ? `**Answer** (Ready, by the verdicts below). ${sentences.join(' ')}` : null;
}
