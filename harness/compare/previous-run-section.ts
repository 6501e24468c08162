// "Against the previous run", the same in every experiment's report (issue
// 44): the report stage's `with.previous_run` names an archived run folder of
// the experiment (reports/<experiment>/runs/<date>-<digest>), and this run's
// comparison files, as the stage is about to publish them, are held against
// that run's by `pipeline compare`'s rule (compare-reports.ts): which
// conclusions held in direction and in magnitude, changed, were lost or
// gained, and the factor every cell shares. The host class is judged from the
// two runs' canaries alone (where both recorded one), not from every archived
// run as `pipeline compare` does on the published folder. The main text says
// the counts and names at most a few conclusions per status; the appendix
// holds the summary line and every conclusion. Pure.
import { paragraph, section, type ReportDocument, type Section } from '../document/document-model.js';
import { compareReports, conclusionLabel, type ReportComparison } from './compare-reports.js';
import type { PublishedReport } from './published-report.js';
import { publishedReportOf } from './read-published-report.js';
import { reproductionDocument } from './render-comparison.js';
import type { RunCanary } from './run-canary.js';

export const PREVIOUS_RUN_TITLE = 'Against the previous run';
const IN_FULL = 'Against the previous run, in full';
/** Conclusions named per status in the main text; the appendix names every one. */
const NAMED = 1;

export interface CurrentRun {
  /** The report folder it will be published to (reports/<experiment>), as errors name it. */
  folder: string;
  csvs: ReadonlyMap<string, string>;
  canary: RunCanary | null;
}

/** This run (its CSV texts) against the previous run's published report. */
export function againstPreviousRun(previous: PublishedReport, current: CurrentRun): ReportComparison {
  const report = publishedReportOf({ folder: current.folder, text: (name) => current.csvs.get(name) ?? null });
  return compareReports({ ...previous, archiveCanaries: [] }, { ...report, canary: current.canary, archiveCanaries: [] });
}

const named = (labels: readonly string[]): string =>
  labels.length <= NAMED ? labels.join(', ') : `${labels.slice(0, NAMED).join(', ')} and ${labels.length - NAMED} more`;

/** The main text's paragraph: counts, the host class, the shared factor, and the conclusions that did not hold, a few by name. */
export function previousRunParagraph(name: string, r: ReportComparison): string {
  const n = r.conclusions.length;
  const inBoth = r.conclusions.filter((c) => c.baseline !== 'absent' && c.candidate !== 'absent').length;
  const transfer = r.hostClass !== null && !r.hostClass.same;
  const parts: string[] = [];
  for (const status of ['changed', 'lost', 'gained'] as const) {
    const list = r.conclusions.filter((c) => c.status === status);
    if (list.length) parts.push(`${list.length} ${status} (${named(list.map(conclusionLabel))})`);
  }
  const factor =
    r.factor.cells > 0
      ? ` Every time cell moved by ×${r.factor.ratio.toFixed(2)}${r.factor.low !== null && r.factor.high !== null ? ` [${r.factor.low.toFixed(2)}, ${r.factor.high.toFixed(2)}]` : ''} (the common factor of ${r.factor.cells} cells).`
      : '';
  const host = r.hostClass
    ? r.hostClass.same
      ? ' Both runs are on the same host class by their canaries.'
      : ' The runs are on different host classes by their canaries: sizes are compared as ratios a / b.'
    : '';
  return (
    `Held against the archived run \`${name}\` by \`pipeline compare\`'s rule: of ${n} conclusions${inBoth < n ? ` (${inBoth} in both runs)` : ''}, ${r.held} held in direction, ${r.heldInMagnitude} ${transfer ? 'transferred in ratio' : 'held in magnitude'}, ${r.heldInBoth} both` +
    `${parts.length ? `; ${parts.join('; ')}` : ''}.${factor}${host} Every conclusion: the appendix "${IN_FULL}".`
  );
}

/** The section for the main text and the appendix's, from reproduction.md's conclusion table. */
export function previousRunSections(
  name: string,
  r: ReportComparison,
  previousFolder: string,
  currentFolder: string,
): { main: Section[]; appendix: Section[] } {
  const full = reproductionDocument(r, previousFolder, currentFolder);
  return {
    main: section(PREVIOUS_RUN_TITLE, [paragraph(previousRunParagraph(name, r))]),
    appendix: section(IN_FULL, [...full.opening.slice(1), ...full.sections.flatMap((s) => s.blocks)]),
  };
}

/** The document with the sections added: the main one before "Method" (or last), the appendix one last. */
export function withPreviousRun(doc: ReportDocument, parts: { main: Section[]; appendix: Section[] }): ReportDocument {
  const at = doc.sections.findIndex((s) => s.title === 'Method');
  const sections = at < 0 ? [...doc.sections, ...parts.main] : [...doc.sections.slice(0, at), ...parts.main, ...doc.sections.slice(at)];
  return { ...doc, sections, appendix: [...doc.appendix, ...parts.appendix] };
}
