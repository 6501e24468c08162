// The report's section for comparisons along the unit or the condition
// (analysis.comparisons[].factor; analysis/factor-differences.ts): one row per
// difference, with the levels held fixed, the paired estimate, its two
// intervals and the analysis's verdict, which the section only words.
import { verdictText } from '../comparison/verdict-words.js';
import { equivalenceWords } from '../comparison/equivalence-words.js';
import { decidedOn } from './difference-verdict-text.js';
import { comparedCells } from '../analysis/difference-record.js';
import type { AnalysisResult } from '../analysis/analysis-result.js';
import { fixedLevelsText } from '../analysis/factor-differences.js';
import { section, table, type Section } from '../document/document-model.js';
import { fixed, orDash } from '../publish/format-number.js';

/** "Along other factors": none without such comparisons. */
export function factorSection(a: AnalysisResult, msDecimals: number): Section[] {
  const rows = a.factorDifferences ?? [];
  if (!rows.length) return [];
  const ms = (v: number): string => fixed(v, msDecimals);
  const interval = (low: number | null, high: number | null): string => (low === null || high === null ? '-' : `[${ms(low)}, ${ms(high)}]`);
  const conf = fixed((rows[0]!.confidence ?? 0.95) * 100, 0);
  const medians = new Map(a.cells.map((c) => [`${c.cohort}/${c.path}/${c.state}/${c.metric}`, c.p50Ms]));
  const medianOf = (c: { cohort: string; path: string; state: string }, metric: string): number | null =>
    medians.get(`${c.cohort}/${c.path}/${c.state}/${metric}`) ?? null;
  return section('Along other factors', [
    table(
      ['compared', 'held fixed', 'metric', 'a − b (ms)', `${conf}% interval (ms)`, 'between sessions (ms)', 'paired rounds', 'verdict'],
      rows.map((d) => [
        `${d.factor === 'unit' ? 'cohort' : 'state'} ${d.a} − ${d.b}`,
        fixedLevelsText(d),
        d.metric,
        orDash(d.observedMs, ms),
        interval(d.lowMs, d.highMs),
        interval(d.sessionLowMs, d.sessionHighMs),
        `${d.rounds} in ${d.sessions} session${d.sessions === 1 ? '' : 's'}`,
        d.verdict.verdict === 'equivalent'
          ? equivalenceWords(d.verdict, medianOf(comparedCells(d)[1], d.metric), decidedOn(d, medianOf(comparedCells(d)[1], d.metric)))
          : verdictText(d.verdict, medianOf(comparedCells(d)[1], d.metric)), // the margin in ms: b's median × its share
      ]),
      'Two cohorts (unit) or two states (condition) compared with the others held fixed, paired by round and judged as the paths are (docs/VERDICTS.md); the margin of "equivalent" is a share of b’s median.' +
        (a.decision?.rule === 'sequential'
          ? ' This run sampled until the paths’ comparisons were decided: these are judged by the fixed-design rule on the sessions it made, without the sequential rule’s guarantee (docs/STATISTICS.md, Comparisons along another factor).'
          : '') +
        (rows.some((d) => d.factor === 'condition')
          ? ' A state comparison sets each cold launch against the warm one right after it (the pair), not two independently ordered states.'
          : ''),
    ),
  ]);
}
