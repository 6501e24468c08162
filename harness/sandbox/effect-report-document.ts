// The sandbox-effects report as a document (pure): the question, a scope
// line, the tally (source rows by what this run could do with them), the
// summary of the measured rows, at most five sentences; then the
// not-runnable reasons (each once, its rows listed), the missing rows and
// the plots; row detail, what measuring the rest would need, the method and
// the provenance go to the appendix.
import { figure, list, paragraph, section, sentences, table, type Block, type ReportDocument, type Section } from '../document/document-model.js';
import type { Plot } from '../publish/plot.js';
import { noteOf, type EffectReportNotes } from './effect-row-notes.js';
import type { MeasuredRow, NotRunnableRow, ReportedRow } from './effect-table-md.js';
import {
  beforeAfterCell,
  interpretation,
  ratioCell,
  relationText,
  runtimeLabel,
  shapeCount,
  shapePhrase,
  sourceFigureCell,
  valueText,
  verdictCell,
} from './effect-phrases.js';
import { defaultClusterRule, type ClusterRule } from '../stats/cluster-rule.js';
import { farOutIqr } from '../stats/far-out.js';
import { notRunnableGroups } from './not-runnable-groups.js';
import type { Requirement } from '../contract/requirement.js';
import type { AnalysisResult } from '../analysis/analysis-result.js';
import type { SessionRecord } from '../contract/exchange-files.js';
import { hostNoiseBlocks } from '../publish/session-sections.js';
import type { PracticalFloor } from './practical-floor.js';
import { triedAndDroppedRule } from './tried-and-dropped.js';
import { sequentialRuleSentence } from '../comparison/rule-words.js';

/** The Method's sentence of a run judged by the sequential rule (comparison/rule-words.ts), with a space after it; null for a fixed design. */
const sequentialOf = (inp: EffectDocumentInput): string | null => {
  const sentence = sequentialRuleSentence(inp.rows.flatMap((r) => (r.state === 'measured' ? [r.cell.judgement] : [])));
  return sentence ? `${sentence} ` : null;
};

export interface EffectDocumentInput {
  title: string;
  question: string;
  /** One sentence: where and with what this ran. */
  scope: string;
  design: { sessions: number; rounds: number; seed: string; order: string };
  rows: readonly ReportedRow[];
  notes: EffectReportNotes;
  requirements: readonly Requirement[];
  floor: PracticalFloor;
  /** analysis.clusters: the cluster rule each side's launches were split by (effects-analyze). Absent: the default rule. */
  clusters?: ClusterRule;
  /** experiment.unmeasured: what this run does not measure (appendix, method). */
  unmeasured: readonly string[];
  /** report.notes: context the data cannot state (appendix, method). */
  reportNotes: readonly string[];
  /** When the launches ran, computed from the samples (launchSpanSentence); null when unknown. */
  launchSpan?: string | null;
  provenance: readonly string[];
  /** Every sampling session's record, for the shared host-noise table; absent when none was given. */
  sessions?: readonly SessionRecord[] | null;
  /** The noise flag calibrated on the host canary (publish/calibrated-noise.ts); absent: the fixed thresholds. */
  noise?: AnalysisResult['noise'];
  plots: readonly Plot[];
  /** The Method's sentence on the design's operating characteristics (comparison/operating-words.ts); absent or null without one. */
  operating?: string | null;
}

export const TALLY_HEADER = [
  'source rows',
  'measured: same optimisation',
  'measured: a proxy',
  'measured: a different question',
  'not runnable here',
  'missing from the pipeline',
  'not source rows (negative controls, the pipeline’s own)',
];

export const SUMMARY_HEADER = [
  'row',
  'runs on',
  'measures',
  'source: before → after',
  'this run: P50 before → after',
  'after/before [95% interval]',
  'verdict',
];

export function tallyRow(inp: EffectDocumentInput): string[] {
  const note = (id: string) => noteOf(inp.notes, id);
  const measured = inp.rows.filter((r): r is MeasuredRow => r.state === 'measured');
  const sourceMeasured = measured.filter((m) => note(m.row.id).sourceRow);
  const rel = (k: string): number => sourceMeasured.filter((m) => note(m.row.id).relation === k).length;
  const notRunnable = inp.rows.filter((r) => r.state === 'not-runnable' && note(r.row.id).sourceRow).length;
  const missing = inp.notes.missing.length;
  const others = inp.rows.filter((r) => (r.state === 'measured' || r.state === 'not-runnable') && !note(r.row.id).sourceRow).length;
  return [sourceMeasured.length + notRunnable + missing, rel('same'), rel('proxy'), rel('different'), notRunnable, missing, others].map(String);
}

export function summaryRows(inp: EffectDocumentInput): string[][] {
  return inp.rows
    .filter((r): r is MeasuredRow => r.state === 'measured')
    .map((m) => {
      const n = noteOf(inp.notes, m.row.id);
      const measures = n.control ? `${relationText[n.relation]}, negative control` : relationText[n.relation];
      // the source's magnitude beside this run's; a negative control has none to set beside it
      const source = n.control && !n.sourceFigure ? 'no effect expected' : sourceFigureCell(n.sourceFigure, m.row.unit);
      // each side's far-out launches and clusters, named beside the P50s they are not
      const shape = shapePhrase(m);
      return [
        `\`${m.row.id}\``,
        runtimeLabel(m.row.requires),
        measures,
        source,
        `${beforeAfterCell(m)}${shape ? `; ${shape}` : ''}`,
        ratioCell(m),
        verdictCell(m, n),
      ];
    });
}

function notRunnableSection(inp: EffectDocumentInput): Section[] {
  const rows = inp.rows.filter((r): r is NotRunnableRow => r.state === 'not-runnable');
  const groups = notRunnableGroups(rows, inp.requirements);
  return section('Not runnable here', [
    groups.length
      ? table(
          ['what is missing on this host', 'rows that need it'],
          groups.map((g) => [g.reason, g.rows.map((r) => `\`${r.row.id}\``).join(', ')]),
        )
      : null,
    groups.length ? paragraph('What each would need is in the appendix.') : null,
  ]);
}

function missingSection(inp: EffectDocumentInput): Section[] {
  return section('Missing from the pipeline', [
    inp.notes.missing.length
      ? table(
          ['source row', 'system', 'why it is missing'],
          inp.notes.missing.map((m) => [`${m.name} (\`${m.id}\`)`, m.system, m.reason]),
        )
      : null,
  ]);
}

function rowDetail(inp: EffectDocumentInput): Section[] {
  const measured = inp.rows.filter((r): r is MeasuredRow => r.state === 'measured');
  return section('Row detail', [
    table(
      [
        'row',
        'optimisation',
        'system',
        'measures, and why',
        'source row',
        'P90 before → after',
        'n (before+after), sessions',
        'why the verdict',
        'setup facts',
      ],
      measured.map((m) => {
        const n = noteOf(inp.notes, m.row.id);
        const c = m.cell;
        const failed = m.failures.before + m.failures.after;
        const facts = Object.keys(m.facts)
          .sort()
          .map((k) => `${k}=${m.facts[k]}`)
          .join(', ');
        return [
          `\`${m.row.id}\``,
          m.row.name,
          m.row.system,
          `${relationText[n.relation]}${n.control ? ', negative control' : ''}${n.why ? `: ${n.why}` : ''}`,
          m.row.source,
          `${valueText(c.p90Before, m.row.unit)} → ${valueText(c.p90After, m.row.unit)}${shapeCount(m) ? ` (${shapeCount(m)})` : ''}`,
          `${c.nBefore}+${c.nAfter}${failed ? `, ${failed} failed` : ''}; ${c.comparison.sessions} sessions, ${c.comparison.sameDirection} in the direction of the whole`,
          m.verdict.reasons.join('; ') || 'kept by the rule',
          facts || '-',
        ];
      }),
    ),
  ]);
}

/** What measuring each unmeasured row (or a proxy's source question) would need: one line per distinct need, its rows listed. */
function needsSection(inp: EffectDocumentInput): Section[] {
  const groups = new Map<string, string[]>();
  const add = (need: string, id: string): void => void groups.set(need, [...(groups.get(need) ?? []), `\`${id}\``]);
  const sources: string[][] = [];
  for (const r of inp.rows) {
    const n = noteOf(inp.notes, r.row.id);
    if (r.state === 'not-runnable') {
      add(n.needs ?? 'the parts it lacks (Not runnable here)', r.row.id);
      sources.push([`\`${r.row.id}\``, r.row.system, r.row.source]);
    } else if (n.relation !== 'same' && n.needs) add(n.needs, r.row.id);
  }
  for (const m of inp.notes.missing) {
    add(m.needs, m.id);
    sources.push([`\`${m.id}\``, m.system, m.source]);
  }
  return [
    ...section('What measuring the rest would need', [
      groups.size
        ? table(
            ['what it would need', 'rows'],
            [...groups].map(([need, ids]) => [need, ids.join(', ')]),
          )
        : null,
    ]),
    ...section('Source figures of the rows without numbers here', [sources.length ? table(['row', 'system', 'source row'], sources) : null]),
  ];
}

/** How each side's shape is found, said once: far-out launches named, the cluster rule on the rest. */
function shapeSentence(r: ClusterRule): string {
  return (
    `A side's launches beyond its quartiles by ${farOutIqr} interquartile ranges (Tukey's far-out fences) are named beside its P50 as "far out", never dropped; ` +
    `the cluster rule of every experiment runs on its other launches and names its clusters when gaps of at least ${r.minGapRatio} pooled standard deviations cut them into groups of at least ${Math.round(r.minGroupShare * 100)}% and ${r.minGroupN ?? 2} launches each (up to ${r.maxGroups}; analysis.clusters).`
  );
}

function methodSection(inp: EffectDocumentInput): Section[] {
  const d = inp.design;
  return section('Method', [
    sentences([
      `Each measured row ran in ${d.sessions} independent sessions (each sets the row up afresh) of ${d.rounds} formal rounds.`,
      `In each round its before and after ran once each, in a ${d.order} order (seed \`${d.seed}\`), each launch after an untimed settle.`,
      'The effect is P50 before → P50 after; the interval is the two-level percentile bootstrap (sessions, then paired rounds) of the ratio of medians (after/before).',
      'With 3 or more sessions, a Student t interval over the log per-session ratios must exclude 1 as well.',
      'Failed launches are counted in n and never given a value.',
      shapeSentence(inp.clusters ?? defaultClusterRule),
    ]),
    paragraph(
      `Rule: ${triedAndDroppedRule(inp.floor)} ${sequentialOf(inp) ?? ''}A negative control fails when that rule establishes a direction of any size; it holds only when both intervals lie within ±${(inp.floor.minRatioChange * 100).toFixed(0)}% of 1, and is undecided otherwise.${inp.operating ? ` ${inp.operating}` : ''}`,
    ),
    ...inp.reportNotes.map((t) => paragraph(t.trim())),
    inp.launchSpan ? paragraph(inp.launchSpan) : null,
    inp.unmeasured.length ? paragraph('Not measured here:') : null,
    inp.unmeasured.length ? list(inp.unmeasured) : null,
  ]);
}

export function effectReportDocument(inp: EffectDocumentInput): ReportDocument {
  const measured = inp.rows.filter((r): r is MeasuredRow => r.state === 'measured');
  const plots: Block[] = inp.plots.map((p) => figure(p.file, p.caption));
  const opening: Block[] = [
    paragraph(`**Question:** ${inp.question}`),
    paragraph(`**Scope:** ${inp.scope.replace(/\.$/, '')}.`),
    table(TALLY_HEADER, [tallyRow(inp)], '**Tally of the source rows.**'),
    ...(measured.length ? [table(SUMMARY_HEADER, summaryRows(inp), '**Measured rows.**')] : []),
    paragraph(interpretation(measured, (id) => noteOf(inp.notes, id), inp.floor).join(' ')),
  ];
  return {
    title: inp.title,
    opening,
    sections: [...notRunnableSection(inp), ...missingSection(inp), ...section('Plots', plots)],
    appendix: [
      ...rowDetail(inp),
      ...needsSection(inp),
      ...methodSection(inp),
      ...section('Provenance', [inp.provenance.length ? list(inp.provenance) : null]),
      ...section('Sessions and host noise', hostNoiseBlocks(inp.sessions ?? null, inp.noise ? { noise: inp.noise } : {}, 'here')),
    ],
  };
}
