// Text for the terminal and reproduction.md for `pipeline compare` (a
// document, rendered like the reports). Pure.
import {
  cellMoved,
  conclusionLabel,
  directionLabel,
  magnitudeLabel,
  movedRatio,
  summaryLine,
  hostClassLine,
  type CellRatio,
  type ReportComparison,
} from './compare-reports.js';
import { betweenRunTolerance, MIN_SPREAD_SESSIONS } from './magnitude-tolerance.js';
import { paragraph, section, table, type ReportDocument } from '../document/document-model.js';
import { renderMarkdown } from '../document/render-markdown.js';
import { MIN_FACTOR_CELLS } from './common-factor.js';
import { runIdentityText, type RunIdentity } from './run-identity.js';
import type { PublishedDisk } from './published-report.js';
import { hostCause, hostLine, type HostDifference } from './host-difference.js';

const fixed = (v: number | null, digits: number): string => (v === null ? '–' : v.toFixed(digits));
/** Bytes as integers, times with three decimals. */
const figure = (v: number | null, unit: string): string => `${fixed(v, unit === 'bytes' ? 0 : 3)} ${unit}`.trim();

function pad(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return (
    rows
      .map((r) =>
        r
          .map((c, i) => c.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

const flagText = (v: boolean | null): string => (v === null ? '–' : v ? 'yes' : 'no');
const toleranceText = (c: CellRatio): string =>
  `×${fixed(1 / c.tolerance, 2)}–×${fixed(c.tolerance, 2)}${c.toleranceSource === 'sessions' ? '' : c.toleranceSource === 'between-run' ? ' (between-run)' : ' (between-run: < 3 sessions)'}`;
const sizeText = (c: CellRatio): string => (c.magnitude === 'not-estimated' ? 'not estimated' : c.magnitude);

/** The tolerance rule, said once in reproduction.md (README and docs/CONTRACTS.md say the same). */
export const toleranceRule =
  `Magnitude is judged on the effect, after the factor every cell shares: the common factor F is the median over the time cells (${MIN_FACTOR_CELLS} or more) of the P50 ratio candidate / baseline, with its sign-test 95% interval, said once. ` +
  'Where the baseline gives the conclusion a rerun interval (rerun_low, rerun_high of differences.csv: where a rerun should land, the between-run component included), it holds in magnitude when the candidate’s difference / F (a ratio as it is) lies inside it; where only the candidate gives one, when the baseline’s difference × F does; the tolerance below is used only where neither report has one. ' +
  `A cell's tolerance is T = max(S, ${fixed(betweenRunTolerance, 3)}): S the baseline's between-session spread of the cell (largest / smallest session median, \`cell_session_spread\` of sessions.csv), used from ${MIN_SPREAD_SESSIONS} sessions on; ` +
  `${fixed(betweenRunTolerance, 3)} = exp(1.96 · √2 · 0.03), the between-run figure of this host kind (harness/stats/host-kind-drift.ts). ` +
  'A cell whose ratio / F lies outside [1/T, T] moved beyond the common factor. A median difference held in magnitude when the candidate’s difference / F lies within ± √((P50_a · ln T_a)² + (P50_b · ln T_b)²) of the baseline’s; ' +
  'a median ratio when the ratio of the two ratios lies within exp(± √(ln² T_a + ln² T_b)).';

/** "S1 start 812/1450, end 790/1398": write/read MB/s of each session's probes. */
export function diskText(disks: readonly PublishedDisk[]): string {
  if (disks.length === 0) return 'no disk probe recorded';
  const bySession = new Map<string, PublishedDisk[]>();
  for (const d of disks) {
    const k = `S${d.session}${d.attempt > 1 ? `.a${d.attempt}` : ''}`;
    bySession.set(k, [...(bySession.get(k) ?? []), d]);
  }
  return [...bySession].map(([k, list]) => `${k} ${list.map((d) => `${d.moment} ${fixed(d.writeMBps, 0)}/${fixed(d.readMBps, 0)}`).join(', ')}`).join('; ');
}

/** Lines on the cells that moved, with both runs' disk figures beside them; none when no cell moved. */
function movedLines(r: ReportComparison): string[] {
  const moved = r.cells.filter(cellMoved);
  if (moved.length === 0) return [];
  return [
    `Cells that moved (P50 ratio outside ${fixed(1 / movedRatio, 2)}–${fixed(movedRatio, 2)}): ${moved.map((c) => `${c.cohort} ${c.path} ${c.state} ${c.metric} ×${fixed(c.ratio, 2)}`).join(', ')}.`,
    `Disk beside them, write (fsync) / read MB/s at each session's start and end: baseline ${diskText(r.disks.baseline)}; candidate ${diskText(r.disks.candidate)}.`,
  ];
}

export function renderComparisonText(r: ReportComparison): string {
  const withOrder = r.conclusions.some((c) => c.baselineOrderEffect !== null || c.candidateOrderEffect !== null);
  const conclusions = [
    ['conclusion', 'baseline', 'candidate', 'in direction', 'in magnitude', ...(withOrder ? ['baseline order effect', 'candidate order effect'] : [])],
  ];
  for (const c of r.conclusions) {
    conclusions.push([
      conclusionLabel(c),
      directionLabel(c.baseline, c.a, c.b, c.baselineVerdict),
      directionLabel(c.candidate, c.a, c.b, c.candidateVerdict),
      c.status,
      magnitudeLabel(c),
      ...(withOrder ? [flagText(c.baselineOrderEffect), flagText(c.candidateOrderEffect)] : []),
    ]);
  }
  const cells = [['cell', 'baseline P50', 'candidate P50', 'ratio', 'after factor', 'tolerance', 'size']];
  for (const c of r.cells) {
    cells.push([
      `${c.cohort} ${c.path} ${c.state} ${c.metric}`,
      figure(c.baselineP50, c.unit),
      figure(c.candidateP50, c.unit),
      c.ratio === null ? '–' : `×${c.ratio.toFixed(2)}`,
      c.adjustedRatio === null ? '–' : `×${c.adjustedRatio.toFixed(2)}`,
      toleranceText(c),
      sizeText(c),
    ]);
  }
  const moved = movedLines(r);
  // the host class first: on another class the table's magnitudes are transfers of ratios, not sizes (issue 43)
  const first = r.hostClass && !r.hostClass.same ? hostClassLine(r.hostClass) + '\n\n' : '';
  return first + pad(conclusions) + '\n' + pad(cells) + '\n' + (moved.length ? moved.join('\n') + '\n\n' : '') + summaryLine(r) + '\n';
}

/** reproduction.md as a document (rendered by the reports' Markdown renderer): the runs, the summary, the rules, the conclusions and the cell medians. */
export function reproductionDocument(
  r: ReportComparison,
  baselineFolder: string,
  candidateFolder: string,
  host?: HostDifference,
  runs?: { baseline: RunIdentity; candidate: RunIdentity },
): ReportDocument {
  const withSessions = r.conclusions.some((c) => c.baselineSessions !== null || c.candidateSessions !== null);
  const withOrder = r.conclusions.some((c) => c.baselineOrderEffect !== null || c.candidateOrderEffect !== null);
  const moved = movedLines(r);
  return {
    title: 'Reproduction',
    opening: [
      paragraph(
        `Baseline: ${runs ? runIdentityText(runs.baseline, baselineFolder) : `\`${baselineFolder}\``}. Candidate: ${runs ? runIdentityText(runs.candidate, candidateFolder) : `\`${candidateFolder}\``}. Written by \`pipeline compare\` from the two published report folders (differences.csv, statistics.csv and, when present, sessions.csv); no raw samples are read.`,
      ),
      paragraph(`**${summaryLine(r)}.**`),
      ...(host
        ? [
            paragraph(
              `${hostLine(host)}.${r.changed + r.lost > 0 && hostCause(host) ? ` ${hostCause(host)!.replace(/^possible cause/, 'Possible cause of what changed or was lost')}.` : ''}`,
            ),
          ]
        : []),
      paragraph(
        'A conclusion is a median difference a − b. Its direction is the report’s verdict: a > b (higher), a < b (lower), equivalent (within its practical margin) or undecided; for a report written before verdicts, the sign of the difference when it was detected, else "not detected". held: the same direction in both; changed: opposite directions, both detected; lost: detected in the baseline only; gained: detected in the candidate only, not detected in the baseline; unmatched: in one report only (a comparison new in the candidate is never gained).',
      ),
      paragraph(toleranceRule),
    ],
    sections: [
      ...section('Conclusions', [
        table(
          [
            'conclusion',
            'baseline',
            'candidate',
            'in direction',
            'in magnitude',
            ...(withSessions ? ['baseline sessions same direction', 'candidate sessions same direction'] : []),
            ...(withOrder ? ['baseline order effect', 'candidate order effect'] : []),
          ],
          r.conclusions.map((c) => [
            conclusionLabel(c),
            directionLabel(c.baseline, c.a, c.b, c.baselineVerdict),
            directionLabel(c.candidate, c.a, c.b, c.candidateVerdict),
            c.status,
            magnitudeLabel(c),
            ...(withSessions ? [c.baselineSessions ?? '–', c.candidateSessions ?? '–'] : []),
            ...(withOrder ? [flagText(c.baselineOrderEffect), flagText(c.candidateOrderEffect)] : []),
          ]),
        ),
      ]),
      ...section('Cell medians', [
        paragraph(
          `Ratio = candidate P50 / baseline P50; after factor = ratio / the common factor (${r.factor.cells ? `×${fixed(r.factor.ratio, 3)}` : 'none'}); tolerance = [1/T, T].`,
        ),
        table(
          ['cohort', 'path', 'state', 'metric', 'baseline P50', 'candidate P50', 'ratio', 'after factor', 'tolerance', 'size'],
          r.cells.map((c) => [
            c.cohort,
            c.path,
            c.state,
            c.metric,
            figure(c.baselineP50, c.unit),
            figure(c.candidateP50, c.unit),
            c.ratio === null ? '–' : c.ratio.toFixed(2),
            c.adjustedRatio === null ? '–' : c.adjustedRatio.toFixed(2),
            toleranceText(c),
            sizeText(c),
          ]),
        ),
        ...moved.map(paragraph),
      ]),
    ],
    appendix: [],
  };
}

export function renderReproductionMd(...args: Parameters<typeof reproductionDocument>): string {
  return renderMarkdown(reproductionDocument(...args));
}
