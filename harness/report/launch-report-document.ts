// The launch experiment's report as a document (pure): the question, the
// scope, one summary table and at most five sentences first; then the
// source, the start-up times, where the cold time goes, order, sessions,
// method and provenance; every long table in the appendix. Each number is
// said once in the main text, each definition once in the report.
import type { AnalysisResult } from '../analysis/analysis-result.js';
import { formatters } from './conclusions.js';
import { fixed, grouped } from '../publish/format-number.js';
import { orderIds, type ReportInputs } from './report-inputs.js';
import type { Plot } from './plot-specs.js';
import { directionCell, judgeFindings, magnitudeCell, sourceReference, verdictCell } from './source-findings.js';
import { sessionsSection } from './sessions-section.js';
import { phaseBreakdownDefinition, phaseMarksText } from './phase-breakdown.js';
import { carryoverSection } from './carryover-section.js';
import { diskSection } from './disk-section.js';
import { stoppingSection } from './stopping-section.js';
import { runOperating } from './run-operating.js';
import { factorSection } from './factor-section.js';
import { identicalContentBlocks } from '../publish/identical-content.js';
import { crossClassSentence, rerunScopeSentence } from './rerun-wording.js';
import { steadyBackgroundSentence } from '../publish/host-wording.js';
import { coldStepSentence, confirmationCostSentence, confirmationSessionsBlock, hostFactsSentence, interpretation, settleSentence } from './launch-phrases.js';
import { figure as figureBlock, list, paragraph, section, sentences, table, type ReportDocument, type Section } from '../document/document-model.js';
import { designOf, takeFigure, type Ctx } from './launch-report-context.js';
import { sweepBlocks, summaryTable, summaryFollowUp } from './launch-summary.js';
import {
  sourceRuleText,
  sourceGapText,
  statementOf,
  sourceSection,
  timesSection,
  coldTimeSection,
  spanAppendix,
  orderSentence,
  methodSection,
  provenanceSection,
} from './launch-sections.js';
import { differencesTables, cellTables, dominanceTables, contentBlocks, pathBlocks, pinBlocks, preparationBlocks, failureBlocks } from './launch-appendix.js';

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
