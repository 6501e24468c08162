// The launch experiment's report as a document (pure): the question, the
// scope, one summary table and at most five sentences first; then the
// source, the start-up times, where the cold time goes, order, sessions,
// method and provenance; every long table in the appendix. Each number is
// said once in the main text, each definition once in the report.
import { notesForRun } from '../config/run-notes.js';
import type { AnalysisResult, CellStatistics, DifferenceResult } from '../analysis/analysis-result.js';
import { comparisonRounds, countText, failedText, formatters, outcomeWords, type Formatters } from './conclusions.js';
import { directionRuleText } from '../comparison/rule-words.js';
import { williamsRows } from '../experiment/williams-design.js';
import { fixed, grouped, orDash } from '../publish/format-number.js';
import { orderIds, type ReportInputs } from './report-inputs.js';
import type { Plot } from './plot-specs.js';
import { bandText, directionCell, judgeFindings, magnitudeCell, sourceReference, verdictCell, type FindingVerdict } from './source-findings.js';
import { provenanceLines } from '../publish/provenance-lines.js';
import { distinctContentText } from './content-detail.js';
import { shellLine } from '../process/shell-quote.js';
import { sessionsSection } from './sessions-section.js';
import { phaseBreakdownDefinition, phaseBreakdownLead, phaseMarksText, spanDifferenceTables, spanTables } from './phase-breakdown.js';
import { carryoverSection } from './carryover-section.js';
import { coldSpansSentence, runtimeHeldFixedPairs, sourceGapParagraph, unsplitStepSentence } from './source-gap-phrases.js';
import { answerParagraph } from './answer-sentence.js';
import { sweepGrowth, type GrowthRow } from './sweep-growth.js';
import { differenceSides, side, splitLegend, splitSuffix } from './split-flag.js';
import type { AnalysisWithSourceGap } from '../analysis/source-gap-facts.js';
import { diskSection } from './disk-section.js';
import { stoppingSection } from './stopping-section.js';
import { runOperating } from './run-operating.js';
import type { RunOperatingCharacteristics } from '../comparison/operating-characteristics.js';
import { operatingSentence } from '../comparison/operating-words.js';
import { factorSection } from './factor-section.js';
import { identicalContentBlocks } from '../publish/identical-content.js';
import { differenceOrderEffect } from './order-effect-notes.js';
import { crossClassSentence, MAY_NOT_HOLD, rerunScopeSentence } from './rerun-wording.js';
import { steadyBackgroundSentence } from '../publish/host-wording.js';
import { noDirectionText } from './difference-verdict-text.js';
import { msIntervalText, seedDigitsLegend } from './interval-text.js';
import {
  accountingSentence,
  coldStepSentence,
  confirmationCostSentence,
  confirmationMethodSentence,
  confirmationSessionsBlock,
  differenceCell,
  fastestCell,
  hostFactsSentence,
  interpretation,
  keyPairs,
  settleSentence,
} from './launch-phrases.js';
import {
  figure as figureBlock,
  list,
  paragraph,
  section,
  sentences,
  table,
  type Block,
  type ReportDocument,
  type Section,
} from '../document/document-model.js';

/** An argv as a shell would need it typed: words with spaces or quotes are single-quoted. */
const code = (argv: readonly string[]): string => '`' + shellLine(argv).replace(/`/g, "'") + '`';

interface Ctx {
  inp: ReportInputs;
  a: AnalysisResult;
  f: Formatters;
  ms: (v: number) => string;
  cohorts: string[];
  paths: string[];
  states: string[];
  verdicts: FindingVerdict[];
  /** Plots not yet placed: whatever is left goes to "More plots". */
  plots: Map<string, Plot>;
  /** report.paths.<id>.stack, null when not given. */
  stackOf: (path: string) => string | null;
  /** The design's operating characteristics on this run's own profiles (run-operating.ts); null without formal launches. */
  operating: RunOperatingCharacteristics | null;
}

function takeFigure(c: Ctx, file: string): Block | null {
  const p = c.plots.get(file);
  if (!p) return null;
  c.plots.delete(file);
  return figureBlock(p.file, p.caption);
}

export function launchReportDocument(inp: ReportInputs, plots: readonly Plot[]): ReportDocument {
  const title = inp.options.title ?? inp.config.experiment.question;
  const a = inp.analysis;
  if (!a)
    return {
      title,
      opening: [paragraph('No analysis.json was among the inputs: there are no statistics, so this report draws no conclusion.')],
      sections: [...provenanceSection(inp)],
      appendix: [],
    };
  if (a.cells.length === 0)
    return {
      title,
      opening: [paragraph('The sample table holds no formal launch: there is nothing to conclude.')],
      sections: [...provenanceSection(inp)],
      appendix: [],
    };
  const cfg = inp.config;
  const c: Ctx = {
    inp,
    a,
    f: formatters(inp.options),
    ms: (v) => fixed(v, inp.options.msDecimals),
    cohorts: orderIds(
      a.cells.map((x) => x.cohort),
      Object.keys(cfg.cohorts ?? {}),
    ),
    paths: orderIds(
      a.cells.map((x) => x.path),
      Object.keys(cfg.paths ?? {}),
    ),
    states: orderIds(
      a.cells.map((x) => x.state),
      cfg.design?.states ?? ['cold', 'warm'],
    ),
    verdicts: judgeFindings(sourceReference(cfg.experiment.reference, inp.options.source), a),
    plots: new Map(plots.map((p) => [p.file, p])),
    operating: runOperating(inp, a),
    stackOf: (p) => inp.options.paths[p]?.stack ?? null,
  };
  const sessions = sessionsSection(a, inp.sessions, inp.options.msDecimals);
  const confirmation = confirmationSessionsBlock(a, inp.options.msDecimals);
  const carry = carryoverSection(a, c.cohorts, c.paths, c.states, inp.options.msDecimals, { launches: inp.launches, measuredCause: inp.options.carryover });
  const main: Section[] = [
    ...sourceSection(c),
    ...timesSection(c),
    ...factorSection(a, inp.options.msDecimals),
    ...coldTimeSection(c),
    ...section('Order and carryover', [
      sentences([
        settleSentence(inp.launches, cfg.design?.settle?.enabled ? cfg.design.settle.dirty_kb : null, cfg.design?.settle?.timeout_s ?? null),
        orderSentence(c),
      ]),
      ...carry.main,
      takeFigure(c, 'position.svg'),
      takeFigure(c, 'rounds.svg'),
    ]),
    ...section('Sessions', [
      ...sessions.main,
      confirmationCostSentence(a) ? paragraph(confirmationCostSentence(a)!) : null,
      confirmation ? paragraph(confirmation.sentence) : null,
      confirmation?.confirmed.length ? list(confirmation.confirmed) : null,
      takeFigure(c, 'session-medians.svg'),
    ]),
    ...methodSection(c),
  ];
  const more = [...c.plots.values()].filter((p) => p.file !== 'content-bytes.svg');
  for (const p of more) c.plots.delete(p.file);
  if (more.length)
    main.push(
      ...section(
        'More plots',
        more.map((p) => figureBlock(p.file, p.caption)),
      ),
    );
  main.push(...stoppingSection(inp.adaptive ?? null, inp.launches, inp.sessions, c.operating)); // design.adaptive only
  main.push(...provenanceSection(inp));
  return {
    title,
    opening: [
      paragraph(scopeLine(c)),
      ...summaryTable(c),
      ...sweepBlocks(c),
      ...summaryFollowUp(c).map((s) => paragraph(s)),
      ...identicalContentBlocks(cfg.cohorts as Record<string, { image?: string | null }> | undefined, inp.pins?.images),
      ...(inp.coverageWarning
        ? [
            paragraph(
              inp.analysis?.decision?.rule === 'sequential'
                ? `**Warning:** ${inp.coverageWarning}.`
                : `**Warning:** the intervals of this design may cover less than they say: ${inp.coverageWarning}.`,
            ),
          ]
        : []),
      // the largest cold step of each cell is said by the spans under the summary, so not again here
      ...interpretation(a, c.verdicts, c.cohorts, c.paths, c.states, inp.options.carryover)
        .filter((s) => s !== coldStepSentence(a, c.cohorts, c.paths))
        .map((s) => paragraph(s)),
    ],
    sections: main,
    appendix: [
      ...section(
        'Against the source, in full',
        c.verdicts.length
          ? [
              paragraph(sourceRuleText(c)),
              c.inp.options.source.standInWhy ? paragraph(`Stand-ins: ${c.inp.options.source.standInWhy}`) : null,
              table(
                ['finding', 'source', 'direction', 'magnitude', 'verdict'],
                c.verdicts.map((v) => [v.finding.id, v.source, directionCell(v), magnitudeCell(v), verdictCell(v)]),
              ),
              table(
                ['finding', 'source says', 'this run'],
                c.verdicts.map((v) => [v.finding.id, statementOf(c, v), v.ours]),
              ),
              sourceGapText(c) ? paragraph(sourceGapText(c)!) : null,
            ]
          : [],
      ),
      ...section('Every difference', differencesTables(c)),
      ...(phaseMarksText(a) ? section('Every phase span', [paragraph(phaseBreakdownDefinition(phaseMarksText(a)!)), ...spanAppendix(c)]) : []),
      ...section('Every cell', cellTables(c)),
      ...section('Dominance', dominanceTables(c)),
      ...section('Content transfer', contentBlocks(c)),
      ...section('Carryover detail', carry.appendix),
      ...section('Sessions detail', sessions.appendix),
      ...section('Disk in each session', [
        sentences([hostFactsSentence(inp.sessions, c.f)]),
        ...diskSection(a, inp.sessions, c.cohorts, c.paths, inp.options.msDecimals, (p) => cfg.paths?.[p]?.cold_check === 'full-pull'),
      ]),
      ...section('Paths and their confounds', pathBlocks(c)),
      ...section('Pinned tools and images', pinBlocks(inp)),
      ...section('Image-service preparation', preparationBlocks(c)),
      ...section('Failures', failureBlocks(c)),
    ],
  };
}

/** Sessions and formal rounds per session as the data has them (an import may differ from the pipeline's design). */
function designOf(a: AnalysisResult): { sessions: number; rounds: number } {
  // With design.confirm, the planned sessions; the cells the confirmation session visited have one more.
  const planned = a.confirmation?.plannedSessions;
  const cells = planned ? a.cells.filter((x) => x.sessions.length <= planned) : a.cells;
  if (planned && cells.length === 0) return { sessions: planned, rounds: Math.round(Math.max(0, ...a.cells.map((x) => x.launches)) / (planned + 1)) };
  const sessions = planned ?? Math.max(1, ...a.cells.map((x) => x.sessions.length));
  const launches = Math.max(0, ...cells.map((x) => x.launches));
  return { sessions, rounds: Math.round(launches / sessions) };
}

/** Where, when and how much: the line above the summary table. */
function scopeLine(c: Ctx): string {
  const { inp, a } = c;
  const ready = a.cells.filter((x) => x.metric === 'ready');
  const launches = ready.reduce((s, x) => s + x.launches, 0);
  const failures = ready.reduce((s, x) => s + x.failures, 0);
  const { sessions: k, rounds } = designOf(a);
  const h = inp.provenance.host;
  const scope = inp.options.scope
    ? inp.options.scope.trim().replace(/\.$/, '')
    : `one host${h?.vcpus ? ` with ${h.vcpus} vCPUs` : ''}${Object.keys(inp.config.services ?? {}).length ? ', every service on local loopback' : ''}; the conclusions hold for this setup only`;
  const design =
    `${k} session${k === 1 ? '' : 's'} × ${rounds} formal round${rounds === 1 ? '' : 's'}, ${grouped(launches)} launches` +
    `${failures ? `, ${failures} failed` : ', none failed'}`;
  const when = measured(inp);
  const rerun = rerunScopeSentence(a);
  const classes = crossClassSentence(a);
  const background = steadyBackgroundSentence(a);
  return `**Scope:** ${scope}. **Design:** ${design}${when ? `; ${when}` : ''}.${rerun ? ` ${rerun}` : ''}${classes ? ` ${classes}` : ''}${background ? ` ${background}` : ''}`;
}

function measured(inp: ReportInputs): string | null {
  const t = inp.launches
    .filter((r) => r['phase'] === 'formal' && typeof r['started_at'] === 'string')
    .map((r) => String(r['started_at']))
    .sort();
  if (!t.length) return null;
  return `measured ${t[0]!.slice(0, 10)}${t[t.length - 1]!.slice(0, 10) !== t[0]!.slice(0, 10) ? ` to ${t[t.length - 1]!.slice(0, 10)}` : ''}`;
}

/** The comparisons of the summary: those configured (analysis.comparisons between paths), in their order, then a source finding's pair not among them. */
function summaryPairs(c: Ctx): [string, string][] {
  const out: [string, string][] = [];
  const add = (p: string, q: string): void => {
    if (!out.some(([x, y]) => x === p && y === q) && c.a.differences.some((d) => !d.factor && d.metric === 'ready' && d.a === p && d.b === q)) out.push([p, q]);
  };
  for (const cmp of c.a.rules?.comparisons ?? []) if (!cmp.factor) add(cmp.a, cmp.b);
  for (const [p, q] of keyPairs(c.a, c.verdicts)) add(p, q);
  return out;
}

/**
 * The answer first, then one row per comparison the pipeline lists (in its order) and one column per cohort and state:
 * the difference with its intervals and P50 ratio, then the fastest path; then what its words mean (after the table, so
 * the headline figures are on the first screen). The source's verdicts are the next section's, said there once.
 */
/** report.sweep: each path's P50 at every level, Ready and Completion, and its growth per level unit with the between-session interval. */
function sweepBlocks(c: Ctx): Block[] {
  const sweep = c.inp.options.sweep;
  if (!sweep) return [];
  const conf = c.a.differences[0]?.confidence ?? 0.95;
  const g = sweepGrowth(c.a.cells, sweep, conf);
  if (!g.rows.length) return [];
  const d = c.inp.options.msDecimals;
  const ms = (v: number | null): string => (v === null ? '–' : fixed(v, d));
  const slope = (r: GrowthRow): string =>
    r.slope === null
      ? '–'
      : r.slope.low === null || r.slope.high === null
        ? fixed(r.slope.value, 2)
        : `${fixed(r.slope.value, 2)} [${fixed(r.slope.low, 2)}, ${fixed(r.slope.high, 2)}]`;
  const order = (r: GrowthRow): string => `${r.metric === 'ready' ? 0 : 1}${c.states.indexOf(r.state)}${c.paths.indexOf(r.path)}`;
  const rows = [...g.rows].sort((x, y) => (order(x) < order(y) ? -1 : order(x) > order(y) ? 1 : 0));
  return [
    table(
      ['metric', 'state', 'path', ...g.levels.map((l) => `P50 at ${grouped(l)} ${sweep.unit}, ms`), `growth, ms per ${sweep.unit} [${fixed(conf * 100, 0)}%]`],
      rows.map((r) => [r.metric === 'ready' ? 'Ready' : 'Completion', r.state, r.path, ...r.p50Ms.map(ms), slope(r)]),
      `How each cell grows with the ${sweep.name}: its P50 at each ${sweep.name} size, and the mean of the sessions' least-squares slopes of their own P50s on the ${sweep.name} in ${sweep.unit}, with Student's t over the sessions`,
    ),
  ];
}

function summaryTable(c: Ctx): Block[] {
  const pairs = summaryPairs(c);
  const conf = fixed((c.a.differences[0]?.confidence ?? 0.95) * 100, 0);
  const cells = c.cohorts.flatMap((cohort) =>
    c.states.filter((state) => c.a.cells.some((x) => x.cohort === cohort && x.state === state)).map((state) => ({ cohort, state })),
  );
  const pairLabel = ([p, q]: [string, string]): string => {
    const stack = c.stackOf(q);
    return `${p} − ${q}${stack !== null && c.stackOf(p) === stack ? ` (runtime held fixed: ${stack})` : ''}`;
  };
  const rows = [
    ...pairs.map((pair) => [
      pairLabel(pair),
      ...cells.map(
        ({ cohort, state }) =>
          differenceCell(
            c.a,
            c.a.differences.find((d) => !d.factor && d.cohort === cohort && d.state === state && d.metric === 'ready' && d.a === pair[0] && d.b === pair[1]),
            c.inp.options.msDecimals,
          ) + splitSuffix(c.a, cohort, state, 'ready', pair),
      ),
    ]),
    // the equivalence's margin is its comparison row's: said once
    [
      'lowest Ready P50',
      ...cells.map(({ cohort, state }) => fastestCell(c.a, cohort, state, c.paths, true).replace(/^\S+/, (p) => side(c.a, cohort, p, state))),
    ],
  ];
  const answer = answerParagraph(c.a, c.inp.options.answer ?? [], cells);
  // the same-class rerun and cross-class intervals: differences.csv and the appendix "Every difference" (the scope line says what they cover)
  const summary = table([`Ready, a − b: ms [${conf}% CI], P50 ratio a/b`, ...cells.map((x) => `${x.cohort} ${x.state}`)], rows);
  const shown = c.a.differences.filter((d) => !d.factor && d.metric === 'ready' && pairs.some(([p, q]) => d.a === p && d.b === q));
  const seedLegend = seedDigitsLegend(
    shown.map((d) => d.seedSpreadMs),
    c.inp.options.msDecimals,
  );
  // each verdict word is defined only when a cell of the table uses it
  const legend =
    `**Reading the table.** Ready is the time from spawning the launch command to reading its marker line. A difference is the first path's median minus the second's` +
    (c.a.decision?.rule === 'sequential'
      ? `; its verdict is the sequential rule's (Method): a figure with no word after it is lower or higher, and the ${conf}% CI describes the sessions run`
      : rows.some((r) => r.some((x) => x.includes('not detected')))
        ? '; "not detected" means its interval, or the between-session one, contains 0'
        : '') +
    (rows.some((r) => r.some((x) => x.includes(MAY_NOT_HOLD)))
      ? `; "${MAY_NOT_HOLD}": its same-class rerun interval (the appendix "Every difference") holds 0`
      : '') +
    (rows.some((r) => r.some((x) => x.includes('size uncertain')))
      ? '; "size uncertain" means the between-session interval contains 0 but every session, on its own rounds, excludes 0 on the same side: the direction holds, the size does not'
      : '') +
    (rows.some((r) => r.some((x) => x.includes('sessions disagree')))
      ? '; "sessions disagree" means the interval excludes 0 but neither the between-session interval nor every session alone does'
      : '') +
    (rows.some((r) => r.some((x) => x.includes('equivalent within')))
      ? c.a.decision?.rule === 'sequential'
        ? `; "equivalent within ±δ" (δ in % and ms) means that interval lies inside ±δ of the second path's median (analysis.practical)`
        : `; "equivalent within ±δ" (δ in % and ms) means both lie inside ±δ of the second path's median (analysis.practical)`
      : '') +
    (seedLegend ? `; ${seedLegend}` : '') +
    '.' +
    (splitLegend(c.a) ? ` ${splitLegend(c.a)}` : '');
  return [...(answer ? [paragraph(answer)] : []), summary, paragraph(legend)];
}

/** The headline pair's twin with the runtime held fixed (the question as asked: what reading on demand saves), when the headline pair mixes two stacks. */
const heldFixed = (c: Ctx, key: readonly [string, string][]): [string, string][] => runtimeHeldFixedPairs(c.a, key.slice(0, 1), c.stackOf);

/** The cold spans of the summary's first sides (each difference's a), or null when none prints marks. */
function summarySpans(c: Ctx): string | null {
  const key = keyPairs(c.a, c.verdicts);
  const firsts = [...new Set([...heldFixed(c, key), ...key].map(([p]) => p))];
  return coldSpansSentence(c.a as AnalysisWithSourceGap, c.cohorts, firsts, { ms: c.ms, pct: c.f.pct });
}

/** Under the summary: each compared path's cold spans (a step is split only where its launch marks its parts); why the saving differs from the source is in the appendix (sourceGapText). */
function summaryFollowUp(c: Ctx): string[] {
  const a = c.a as AnalysisWithSourceGap;
  const key = keyPairs(c.a, c.verdicts);
  const pairs = [...heldFixed(c, key), ...key];
  const firsts = [...new Set(pairs.map(([p]) => p))];
  const spans = [summarySpans(c), unsplitStepSentence(a, firsts)].filter((s): s is string => s !== null);
  return spans.length ? [spans.join(' ')] : [];
}

/** What the appendix "Against the source, in full" holds of each finding. */
const EACH_FINDING = 'each finding with its direction, magnitude, verdict, the rule that judges them, and its words and figures';

/** " Stand-in for its lazy: gvisor-lazy (why, and each finding …: the appendix)." from report.source.stand_ins; '' without any. */
function standInsText(c: Ctx): string {
  const s = Object.entries(c.inp.options.source.standIns);
  if (!s.length) return '';
  return ` Stand-in for its ${s.map(([p, q]) => `${p}: ${q}`).join('; ')}${c.inp.options.source.standInWhy ? ` (why, and ${EACH_FINDING}: the appendix "Against the source, in full")` : ''}.`;
}

/** The rule a source finding is judged by, said once (docs/VERDICTS.md). */
const sourceRuleText = (c: Ctx): string =>
  'A finding agrees when its **direction** held (both runs detect the same path as lower, or both none) and its **magnitude** held ' +
  `(this run's effect over the source's within the finding's band, ${[...new Set(c.verdicts.map((v) => bandText(v.finding.toleranceRatio)))].join(' or ')}) or had no size to compare; ` +
  'magnitude is judged only where both runs detect the same direction, never from overlapping intervals or a shared sign (docs/VERDICTS.md).';

/** Why the saving differs from the source (bytes read and the read rate), for the appendix "Against the source, in full"; null without it. */
function sourceGapText(c: Ctx): string | null {
  const key = keyPairs(c.a, c.verdicts);
  return sourceGapParagraph(c.a as AnalysisWithSourceGap, c.verdicts, c.cohorts, [...new Set(key.map(([, q]) => q))], { ms: c.ms, pct: c.f.pct });
}

/** The source's words, once: a stand-in twin ("<id> (<stand-in>)") refers to its finding instead of repeating them. */
function statementOf(c: Ctx, v: FindingVerdict): string {
  const base = v.finding.id.replace(/ \([^)]*\)$/, '');
  return base !== v.finding.id && c.verdicts.some((w) => w.finding.id === base) ? `as ${base}` : v.finding.statement;
}

function sourceSection(c: Ctx): Section[] {
  const ref = sourceReference(c.inp.config.experiment.reference, c.inp.options.source);
  if (!ref || c.verdicts.length === 0) return [];
  return section('Against the source', [
    paragraph(`Source: ${ref.source.trim()}${ref.setup ? ` Its setup: ${ref.setup.trim().replace(/\.$/, '')}.` : ''}${standInsText(c)}`),
    // the appendix is named once: beside the stand-in's why where there is one
    ...(standInsText(c).includes('the appendix')
      ? []
      : [paragraph(`${EACH_FINDING[0]!.toUpperCase()}${EACH_FINDING.slice(1)}: the appendix "Against the source, in full".`)]),
    takeFigure(c, 'differences.svg'),
  ]);
}

const centre = (c: Ctx, cell: CellStatistics | undefined): string => {
  if (!cell || cell.p50Ms === null) return '-';
  const v = cell.split ? cell.groups.map((g) => `${c.ms(g.medianMs)} (${c.f.pct(g.share)})`).join(' / ') : c.ms(cell.p50Ms);
  return v + (cell.orderEffect ? ' †' : '') + (cell.failures ? ` (${cell.failures} failed)` : '');
};

/** Ready P50 of every path in every state, one table per cohort, with its ECDF. */
function timesSection(c: Ctx): Section[] {
  const blocks: Block[] = [
    paragraph(
      `Ready P50 in ms (${c.a.quantile.split(' (')[0]}); † marks an order effect. ${clusterOutcome(c)} ` +
        'The appendix "Every cell" has Completion, P95, minimum and maximum.',
    ),
  ];
  for (const cohort of c.cohorts) {
    blocks.push(
      table(
        ['path', ...c.states.map((s) => `${s} Ready P50`)],
        c.paths.map((p) => [
          p,
          ...c.states.map((s) =>
            centre(
              c,
              c.a.cells.find((x) => x.cohort === cohort && x.path === p && x.state === s && x.metric === 'ready'),
            ),
          ),
        ]),
        `**${cohort}**`,
      ),
    );
    const fig = takeFigure(c, `ecdf-${cohort.toLowerCase().replace(/[^a-z0-9_-]+/g, '-')}.svg`);
    if (fig) blocks.push(fig);
  }
  const modes = takeFigure(c, 'modes.svg');
  if (modes) blocks.push(modes);
  return section('Start-up times', blocks);
}

/** What the cluster rule found, said once: a split cell shows each cluster's median and share instead of one P50. */
function clusterOutcome(c: Ctx): string {
  const cells = c.a.cells.filter((x) => x.metric === 'ready');
  const split = cells.filter((x) => x.split);
  return split.length === 0
    ? `The cluster rule split none of the ${cells.length} cells.`
    : `The cluster rule split ${split.length} of the ${cells.length} cells, shown by each cluster's median and share.`;
}

/**
 * Where the cold time goes: the figure and the host. Each compared side's cold
 * spans are under the summary; where they are not (no side of a key pair
 * prints marks), the key differences span by span are here. Every span and
 * span difference is in the appendix.
 */
function coldTimeSection(c: Ctx): Section[] {
  const marks = phaseMarksText(c.a);
  if (!(c.a.spans ?? []).length || !marks) return [];
  const inSummary = summarySpans(c) !== null;
  const key = keyPairs(c.a, c.verdicts);
  const tables = inSummary ? [] : c.cohorts.flatMap((cohort) => spanDifferenceTables(c.a, cohort, c.inp.options.msDecimals, { pairs: key, withReady: false }));
  return section('Where the cold time goes', [paragraph(phaseBreakdownLead(marks, inSummary)), ...tables, takeFigure(c, 'cold-breakdown.svg')]);
}

function spanAppendix(c: Ctx): Block[] {
  return c.cohorts.flatMap((cohort) => [...spanTables(c.a, cohort, c.inp.options.msDecimals), ...spanDifferenceTables(c.a, cohort, c.inp.options.msDecimals)]);
}

function orderSentence(c: Ctx): string | null {
  const d = c.inp.config.design;
  if (!d) return null;
  if (d.order === 'random') return 'The order of paths was shuffled within each round (design.order random).';
  const paths = Math.max(0, ...Object.values(positionsOf(c)));
  const cycle = williamsRows(Math.max(1, paths)).length;
  const { rounds } = designOf(c.a);
  if (paths > 1 && rounds % cycle !== 0 && rounds % paths === 0)
    return (
      `The order of paths followed a Williams design within each session: in its ${rounds} rounds every path ran once in each position, ` +
      `but balancing which path ran before which needs all ${cycle} rows of the design.`
    );
  if (paths > 1 && rounds % cycle !== 0)
    return `The order of paths followed a Williams design within each session; ${rounds} rounds do not fill its ${cycle} rows, so position and predecessor are balanced only as far as the rows run.`;
  return 'The order of paths followed a Williams design within each session: every path ran equally often in each position and after every other path.';
}

/** The paths each cohort's rounds ordered (its launches' distinct paths). */
const positionsOf = (c: Ctx): Record<string, number> =>
  Object.fromEntries(c.cohorts.map((cohort) => [cohort, new Set(c.a.cells.filter((x) => x.cohort === cohort).map((x) => x.path)).size]));

/** How an adaptive run's verdicts were taken (comparison/sequential-analysis.ts), in place of the fixed design's rule. */
function sequentialRuleText(d: NonNullable<AnalysisResult['decision']>): string {
  return (
    `They decide nothing here: this run sampled until decided (design.adaptive), and after each of sessions ${d.minSessions} to ${d.maxSessions} a group-sequential Student t over each difference's per-session mean log ratios ` +
    `(alpha ${d.alpha} spread over those looks as the operating characteristics below say; docs/STATISTICS.md) called it **lower**, **higher** or **equivalent** within the practical margin, or left it **undecided**.`
  );
}

function methodSection(c: Ctx): Section[] {
  const { inp, a } = c;
  const d = inp.config.design;
  const r = a.rules;
  const conf = fixed(r.bootstrap.confidence * 100, 0);
  const { sessions: k, rounds } = designOf(a);
  const calibration = inp.options.calibration;
  return section('Method', [
    d
      ? paragraph(
          `${k === 1 ? 'The session' : `Each of the ${k} sessions`} started every service afresh and ran ${rounds} formal round${rounds === 1 ? '' : 's'} per cohort, after ${d.warmup_rounds} warmup round${d.warmup_rounds === 1 ? '' : 's'}; ` +
            `in a round each path's cold launch is followed by its warm launch; seed \`${d.seed}\`; a launch times out after ${d.timeout_s} s. ` +
            accountingSentence(inp.launches, inp.preflight),
        )
      : null,
    confirmationMethodSentence(a) ? paragraph(confirmationMethodSentence(a)!) : null,
    paragraph(
      "Completion ends when the process has exited and both its output streams are closed, so it includes the path's own teardown. " +
        (Object.keys(inp.config.services ?? {}).length
          ? 'Content bytes are HTTP body bytes of image data a launch received from the services; response bytes are every byte the counted services sent, headers included. Service preparation is timed apart from the launches.'
          : ''),
    ),
    paragraph(
      `Intervals: the sessions are resampled, then the complete paired rounds within each drawn session, ${grouped(r.bootstrap.resamples)} times (seed \`${r.bootstrap.seed}\`), giving ${conf}% percentile intervals of each difference of medians. ` +
        `${a.decision?.rule === 'sequential' ? sequentialRuleText(a.decision) : "With 3 or more sessions there is also a Student's t interval over the per-session differences. " + directionRuleText('0')} ` +
        'An interval shows which path has the lower median, not that every launch of it is faster, nor a cause. ' +
        `The cluster rule splits a cell at gaps of ${r.clusters.minGapRatio} pooled standard deviations into groups of at least ${c.f.pct(r.clusters.minGroupShare)} and ${r.clusters.minGroupN ?? 2} launches (up to ${r.clusters.maxGroups}). ` +
        `P95 is reference-only below n=${r.p95ReferenceBelowN}.`,
    ),
    c.operating && operatingSentence(c.operating, a.decision?.rule === 'sequential')
      ? paragraph(operatingSentence(c.operating, a.decision?.rule === 'sequential')!)
      : null,
    calibration ? paragraph(`Calibration: ${calibration.trim().replace(/\.$/, '')}.`) : null,
    inp.config.experiment.unmeasured?.length
      ? paragraph(
          `Unmeasured: ${inp.config.experiment.unmeasured
            .map((u, i) => {
              const t = u.trim().replace(/\.$/, '');
              return i === 0 ? t : t.charAt(0).toLowerCase() + t.slice(1);
            })
            .join('; ')}.`,
        )
      : null,
    ...(inp.notes ?? notesForRun(inp.options.notes, null)).map((n) => paragraph(n.trim())),
  ]);
}

function provenanceSection(inp: ReportInputs): Section[] {
  const files =
    '[statistics.csv](statistics.csv) · [differences.csv](differences.csv) · [sessions.csv](sessions.csv) · [provenance.csv](provenance.csv)' +
    (inp.launches.length ? ' · [samples.csv](samples.csv) (every launch)' : '') +
    (inp.analysis?.launchSpans?.some((l) => l.spans.length > 1) ? ' · [phases.csv](phases.csv) (every phase mark and span)' : '') +
    ' · [the web page](index.html) · [REPRODUCE.md](REPRODUCE.md)';
  const digest = inp.samplesSha256
    ? `The raw samples are the DuckDB file with sha256 ${inp.samplesSha256}, kept in the data folder with every frozen stage output.`
    : 'No samples.duckdb was among the inputs.';
  const verify = inp.verify
    ? inp.verify.ok
      ? 'Every artifact hash matched after sampling.'
      : 'Artifact hashes did NOT all match after sampling: see provenance.csv.'
    : 'No verify stage ran: artifact hashes were not re-checked after sampling.';
  return section('Provenance and downloads', [list(provenanceLines(inp.provenance, inp.launches)), paragraph(`${files}. ${digest} ${verify}`)]);
}

/** "2 of 3": the host classes a Ready difference held on (analysis/cross-class.ts); '-' where fewer than two have it. */
function classesCell(a: AnalysisResult, d: DifferenceResult): string {
  const x = a.crossClass?.differences.find(
    (y) => d.metric === 'ready' && !d.factor && y.cohort === d.cohort && y.state === d.state && y.a === d.a && y.b === d.b,
  );
  return x && x.classes >= 2 ? `${x.holds} of ${x.classes}` : '-';
}

function differencesTables(c: Ctx): Block[] {
  const conf = fixed((c.a.differences[0]?.confidence ?? 0.95) * 100, 0);
  const withClasses = c.a.crossClass?.differences.some((x) => x.classes >= 2) ?? false;
  const ms = (v: number | null): string => orDash(v, c.ms);
  const seedLegend = seedDigitsLegend(
    c.a.differences.map((d) => d.seedSpreadMs),
    c.inp.options.msDecimals,
  );
  // the interval and rerun columns: their endpoints to the digits the seed supports
  const seedNote = seedLegend
    ? ` Interval columns: ${seedLegend} (the same-class rerun interval widens the ${conf}% one, so its endpoints move as that one's do).`
    : '';
  const rows = c.a.differences.map((d) => [
    d.cohort,
    d.state,
    d.metric,
    differenceSides(c.a, d.cohort, d.state, d.metric, d.a, d.b),
    ms(d.observedMs),
    d.lowMs === null || d.highMs === null ? '-' : msIntervalText(d.lowMs, d.highMs, d.seedSpreadMs, c.inp.options.msDecimals),
    d.sessionLowMs === null || d.sessionHighMs === null ? '-' : `[${c.ms(d.sessionLowMs)}, ${c.ms(d.sessionHighMs)}]`,
    `${d.rounds} of ${comparisonRounds(c.a, d)}`,
    d.sessions > 1 ? `${d.sameDirection} of ${d.sessions}` : '1',
    d.rerun ? msIntervalText(d.rerun.lowMs, d.rerun.highMs, d.seedSpreadMs, c.inp.options.msDecimals, false) : '-',
    outcomeWords(d, noDirectionText(c.a, d)) + (differenceOrderEffect(c.a, d).length ? '; order effect' : ''),
    ...(withClasses ? [classesCell(c.a, d)] : []),
  ]);
  return rows.length
    ? [
        table(
          [
            'cohort',
            'state',
            'metric',
            'difference',
            'observed (ms)',
            `${conf}% interval (ms)`,
            'between sessions (ms)',
            'paired rounds',
            'same direction in sessions',
            'same-class rerun (ms)',
            'result',
            ...(withClasses ? ['held on host classes'] : []),
          ],
          rows,
          c.a.decision?.rule === 'sequential'
            ? `Every difference of marginal medians; differences.csv has the same rows. Result: the sequential rule (docs/STATISTICS.md, Sequential decisions): detected (lower or higher, the verdict column); equivalent within ±δ (δ in % and ms, with the interval it was decided on); undecided.${seedNote}`
            : `Every difference of marginal medians; differences.csv has the same rows. Result: the one direction rule (docs/VERDICTS.md): detected; size uncertain (every session alone excludes 0 on one side, the between-session interval does not); sessions disagree (neither); equivalent within ±δ (δ in % and ms, with the interval it was decided on); not detected.${seedNote}`,
        ),
      ]
    : [];
}

function cellTables(c: Ctx): Block[] {
  const { a } = c;
  const order = (x: CellStatistics): number => c.paths.indexOf(x.path) * 100 + c.states.indexOf(x.state) * 10 + (x.metric === 'ready' ? 0 : 1);
  return c.cohorts.map((cohort) =>
    table(
      ['path', 'state', 'metric', 'n of launches', 'failed (reason)', 'P50 or clusters', 'P95', 'min', 'max'],
      a.cells
        .filter((x) => x.cohort === cohort)
        .sort((p, q) => order(p) - order(q))
        .map((x) => [
          x.path,
          x.state,
          x.metric,
          `${x.n} of ${x.launches}`,
          x.failures === 0 ? '0' : failedText(a, x),
          x.split ? x.groups.map((g) => `${c.ms(g.medianMs)} (${c.f.pct(g.share)})`).join(' / ') : orDash(x.p50Ms, c.ms),
          orDash(x.p95Ms, c.ms) + (x.p95ReferenceOnly && x.p95Ms !== null ? ' (ref.)' : ''),
          orDash(x.minMs, c.ms),
          orDash(x.maxMs, c.ms),
        ]),
      `**${cohort}**, ms; statistics.csv has the same figures.`,
    ),
  );
}

function dominanceTables(c: Ctx): Block[] {
  const rows = c.a.dominance
    .filter((d) => d.result === 'a-precedes-b' || d.result === 'b-precedes-a')
    .map((d) => {
      const [first, second, n1, n2] = d.result === 'a-precedes-b' ? [d.a, d.b, d.nA, d.nB] : [d.b, d.a, d.nB, d.nA];
      return [d.cohort, d.state, d.metric, side(c.a, d.cohort, first, d.state, d.metric), side(c.a, d.cohort, second, d.state, d.metric), `${n1} / ${n2}`];
    });
  return rows.length
    ? [
        table(
          ['cohort', 'state', 'metric', 'every launch of', 'is shorter than every launch of', 'valid launches'],
          rows,
          'Pairs of cells that do not overlap at all; every other pair overlaps. Failed launches are not among the values.',
        ),
      ]
    : [];
}

function contentBlocks(c: Ctx): Block[] {
  const { a, inp } = c;
  const bytes = a.bytes.filter((b) => b.contentBytes.n > 0 || b.responseBytes.n > 0);
  if (bytes.length === 0) return [];
  const cellText = (s: (typeof bytes)[number]['contentBytes']): string =>
    s.n === 0 ? 'not counted' : s.identical ? grouped(s.median!) : `${grouped(s.median!)} (varies: ${grouped(s.min!)}–${grouped(s.max!)})`;
  const out: Block[] = [
    table(
      ['cohort', 'path', 'state', 'n', 'content bytes', 'response bytes'],
      bytes.map((b) => [b.cohort, b.path, b.state, String(Math.max(b.contentBytes.n, b.responseBytes.n)), cellText(b.contentBytes), cellText(b.responseBytes)]),
      'Bytes per launch through Completion, of launches that succeeded; a count that varies within its cell shows its median and range.',
    ),
  ];
  const varying = bytes.filter((b) => b.contentBytes.n > 0 && !b.contentBytes.identical);
  if (varying.length)
    out.push(
      paragraph(
        `Content counts that vary within a cell, each distinct value with its number of launches: ${varying.map((b) => `${b.cohort} ${b.path} ${b.state}: ${distinctContentText(inp.launches, b.cohort, b.path, b.state)}`).join('; ')}.`,
      ),
    );
  // paths with the same definition share one entry, so it is said once
  const byDef = new Map<string, string[]>();
  for (const p of c.paths.filter((x) => inp.options.paths[x]?.content)) {
    const d = inp.options.paths[p]!.content!.trim().replace(/\.$/, '');
    byDef.set(d, [...(byDef.get(d) ?? []), p]);
  }
  const defs = [...byDef].map(([d, ps]) => `${ps.join(' and ')}: ${d}`);
  out.push(
    paragraph(
      `${defs.length ? `What each path's content bytes are: ${defs.join('; ')}. ` : ''}Request counts per launch are not recorded in the sample table.`,
    ),
  );
  const fig = takeFigure(c, 'content-bytes.svg');
  if (fig) out.push(fig);
  return out;
}

function pathBlocks(c: Ctx): Block[] {
  const cfg = c.inp.config;
  const items: string[] = [];
  for (const id of c.cohorts) {
    const co = cfg.cohorts?.[id];
    if (co)
      items.push(
        `Cohort \`${id}\`${co.description ? `: ${co.description.trim().replace(/\.$/, '')}` : ''}. Command ${code(co.command)}${co.image ? `, image \`${co.image}\`` : ''}.`,
      );
  }
  for (const id of c.paths) {
    const p = cfg.paths?.[id];
    if (!p) continue;
    const n = c.inp.options.paths[id];
    const confounds = n?.confounds.length ? ` Confounds: ${n.confounds.map((x) => x.trim().replace(/\.$/, '')).join('; ')}.` : '';
    items.push(
      `Path \`${id}\`${p.description ? `: ${p.description.trim().replace(/\.$/, '')}` : ''}.${n?.stack ? ` Runtime stack: ${n.stack}.` : ''} Launch ${code(p.launch)}.${confounds}`,
    );
  }
  const unlisted = c.paths.filter((id) => cfg.paths?.[id] && !c.inp.options.paths[id]?.confounds.length);
  return items.length
    ? [
        paragraph(
          'A comparison of two paths measures their whole start-up configurations; it isolates no single factor where the paths differ in more than one.' +
            (unlisted.length
              ? ` No confound is listed for ${unlisted.join(', ')} (report.paths), so no comparison with ${unlisted.length === 1 ? 'it' : 'them'} is said to isolate anything.`
              : ''),
        ),
        list(items),
      ]
    : [];
}

function pinBlocks(inp: ReportInputs): Block[] {
  const pins = inp.pins;
  if (!pins) return [paragraph('This pipeline pins no artifact, so versions and image digests are not recorded.')];
  const host: string[] = [];
  if (pins.kernel) host.push(`kernel ${pins.kernel}`);
  if (pins.node) host.push(`Node ${pins.node}`);
  // Only the tools this experiment used (publish/used-tools.ts), when known.
  for (const b of pins.binaries ?? []) if (!inp.tools || inp.tools.includes(b.name)) host.push(`${b.name} ${b.version ?? '(version unknown)'}`);
  const images = Object.keys(pins.images ?? {})
    .sort()
    .map((id) => {
      const img = pins.images![id]!;
      const parts = [
        img.ref ?? null,
        img.manifestDigest ? `manifest ${img.manifestDigest}` : null,
        img.tarSha256 ? `tar sha256:${img.tarSha256}` : null,
        img.erofsSha256 ? `erofs sha256:${img.erofsSha256}` : null,
      ].filter(Boolean);
      return `Image \`${id}\`: ${parts.join(', ') || 'no digest recorded'}.`;
    });
  return [...(host.length ? [paragraph(`Pinned host and tools: ${host.join(', ')}.`)] : []), ...(images.length ? [list(images)] : [])];
}

function preparationBlocks(c: Ctx): Block[] {
  const p = c.a.preparation;
  if (!p || p.length === 0) return [];
  return [
    table(
      ['service', 'artifact', 'operation', 'seconds'],
      p.map((x) => [x.service, x.artifact, x.operation, fixed(x.seconds, c.inp.options.secondsDecimals)]),
      'One observation per operation, timed apart from the clients; the operations differ, so no ranking is drawn.',
    ),
  ];
}

function failureBlocks(c: Ctx): Block[] {
  if (c.a.failures.length === 0) return [];
  const per = c.a.cells.filter((x) => x.metric === 'ready' && x.failures > 0).map((x) => `${x.cohort} ${x.path} ${x.state}: ${countText(c.a, x)}`);
  return [
    table(
      ['cohort', 'path', 'state', 'reason', 'count'],
      c.a.failures.map((x) => [x.cohort, x.path, x.state, x.reason, String(x.count)]),
    ),
    ...(per.length ? [paragraph(`Cells with failures: ${per.join('; ')}.`)] : []),
  ];
}
