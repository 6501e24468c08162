// The launch report's main sections after the summary (pure): against the
// source, start-up times, where the cold time goes, order, method and
// provenance.
import { notesForRun } from '../config/run-notes.js';
import type { AnalysisResult, CellStatistics } from '../analysis/analysis-result.js';
import { directionRuleText } from '../comparison/rule-words.js';
import { williamsRows } from '../experiment/williams-design.js';
import { fixed, grouped } from '../publish/format-number.js';
import type { ReportInputs } from './report-inputs.js';
import { bandText, sourceReference, type FindingVerdict } from './source-findings.js';
import { provenanceLines } from '../publish/provenance-lines.js';
import { phaseBreakdownLead, phaseMarksText, spanDifferenceTables, spanTables } from './phase-breakdown.js';
import { sourceGapParagraph } from './source-gap-phrases.js';
import { side } from './split-flag.js';
import type { AnalysisWithSourceGap } from '../analysis/source-gap-facts.js';
import { operatingSentence } from '../comparison/operating-words.js';
import { accountingSentence, confirmationMethodSentence, keyPairs } from './launch-phrases.js';
import { list, paragraph, section, table, type Block, type Section } from '../document/document-model.js';
import { designOf, takeFigure, type Ctx } from './launch-report-context.js';
import { summarySpans } from './launch-summary.js';

export const EACH_FINDING = 'each finding with its verdict and figures';

/** " Stand-in for its lazy: gvisor-lazy (why, and each finding …: the appendix)." from report.source.stand_ins; '' without any. */
export function standInsText(c: Ctx): string {
  const s = Object.entries(c.inp.options.source.standIns);
  if (!s.length) return '';
  return ` Stand-in for its ${s.map(([p, q]) => `${p}: ${q}`).join('; ')}${c.inp.options.source.standInWhy ? ` (why, and ${EACH_FINDING}: the appendix "Against the source, in full")` : ''}.`;
}

/** The rule a source finding is judged by, said once (docs/VERDICTS.md). */
export const sourceRuleText = (c: Ctx): string =>
  'A finding agrees when its **direction** held (both runs detect the same path as lower, or both none) and its **magnitude** held ' +
  `(this run's effect over the source's within the finding's band, ${[...new Set(c.verdicts.map((v) => bandText(v.finding.toleranceRatio)))].join(' or ')}) or had no size to compare; ` +
  'magnitude is judged only where both runs detect the same direction, never from overlapping intervals or a shared sign (docs/VERDICTS.md).';

/** Why the saving differs from the source (bytes read and the read rate), for the appendix "Against the source, in full"; null without it. */
export function sourceGapText(c: Ctx): string | null {
  const key = keyPairs(c.a, c.verdicts);
  return sourceGapParagraph(c.a as AnalysisWithSourceGap, c.verdicts, c.cohorts, [...new Set(key.map(([, q]) => q))], { ms: c.ms, pct: c.f.pct });
}

/** The source's words, once: a stand-in twin ("<id> (<stand-in>)") refers to its finding instead of repeating them. */
export function statementOf(c: Ctx, v: FindingVerdict): string {
  const base = v.finding.id.replace(/ \([^)]*\)$/, '');
  return base !== v.finding.id && c.verdicts.some((w) => w.finding.id === base) ? `as ${base}` : v.finding.statement;
}

export function sourceSection(c: Ctx): Section[] {
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

export const centre = (c: Ctx, cell: CellStatistics | undefined): string => {
  if (!cell || cell.p50Ms === null) return '-';
  const v = cell.split ? cell.groups.map((g) => `${c.ms(g.medianMs)} (${c.f.pct(g.share)})`).join(' / ') : c.ms(cell.p50Ms);
  return v + (cell.orderEffect ? ' †' : '') + (cell.failures ? ` (${cell.failures} failed)` : '');
};

/** Ready P50 of every path in every state, one table per cohort, with its ECDF. */
export function timesSection(c: Ctx): Section[] {
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
export function clusterOutcome(c: Ctx): string {
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
export function coldTimeSection(c: Ctx): Section[] {
  const marks = phaseMarksText(c.a);
  if (!(c.a.spans ?? []).length || !marks) return [];
  const inSummary = summarySpans(c) !== null;
  const key = keyPairs(c.a, c.verdicts);
  const tables = inSummary ? [] : c.cohorts.flatMap((cohort) => spanDifferenceTables(c.a, cohort, c.inp.options.msDecimals, { pairs: key, withReady: false }));
  return section('Where the cold time goes', [paragraph(phaseBreakdownLead(marks, inSummary)), ...tables, takeFigure(c, 'cold-breakdown.svg')]);
}

export function spanAppendix(c: Ctx): Block[] {
  return c.cohorts.flatMap((cohort) => [...spanTables(c.a, cohort, c.inp.options.msDecimals), ...spanDifferenceTables(c.a, cohort, c.inp.options.msDecimals)]);
}

export function orderSentence(c: Ctx): string | null {
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
export const positionsOf = (c: Ctx): Record<string, number> =>
  Object.fromEntries(c.cohorts.map((cohort) => [cohort, new Set(c.a.cells.filter((x) => x.cohort === cohort).map((x) => x.path)).size]));

/** How an adaptive run's verdicts were taken (comparison/sequential-analysis.ts), in place of the fixed design's rule. */
export function sequentialRuleText(d: NonNullable<AnalysisResult['decision']>): string {
  return (
    `They decide nothing here: this run sampled until decided (design.adaptive), and after each of sessions ${d.minSessions} to ${d.maxSessions} a group-sequential Student t over each difference's per-session mean log ratios ` +
    `(alpha ${d.alpha} spread over those looks as the operating characteristics below say; docs/STATISTICS.md) called it **lower**, **higher** or **equivalent** within the practical margin, or left it **undecided**.`
  );
}

export function methodSection(c: Ctx): Section[] {
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
      'Completion: the process exited and both output streams closed (its teardown included). ' +
        (Object.keys(inp.config.services ?? {}).length
          ? 'Content bytes: HTTP body bytes of image data from the services; response bytes: all they sent, headers included. Service preparation is timed apart.'
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

export function provenanceSection(inp: ReportInputs): Section[] {
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
