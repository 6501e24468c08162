// Text for the terminal and reproduction.md for `pipeline compare`. Pure.
import { hostCause, hostLine, type HostDifference } from './host-difference.js';
import { conclusionLabel, directionLabel, summaryLine, type ReportComparison } from './compare-reports.js';

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

export function renderComparisonText(r: ReportComparison): string {
  const conclusions = [['conclusion', 'baseline', 'candidate', 'status']];
  for (const c of r.conclusions) {
    conclusions.push([conclusionLabel(c), directionLabel(c.baseline, c.a, c.b), directionLabel(c.candidate, c.a, c.b), c.status]);
  }
  const cells = [['cell', 'baseline P50', 'candidate P50', 'ratio']];
  for (const c of r.cells) {
    cells.push([
      `${c.cohort} ${c.path} ${c.state} ${c.metric}`,
      figure(c.baselineP50, c.unit),
      figure(c.candidateP50, c.unit),
      c.ratio === null ? '–' : `×${c.ratio.toFixed(2)}`,
    ]);
  }
  return pad(conclusions) + '\n' + pad(cells) + '\n' + summaryLine(r) + '\n';
}

const md = (text: string): string => text.replace(/\|/g, '\\|');

export function renderReproductionMd(r: ReportComparison, baselineFolder: string, candidateFolder: string, host?: HostDifference): string {
  const withSessions = r.conclusions.some((c) => c.baselineSessions !== null || c.candidateSessions !== null);
  const lines: string[] = [
    '# Reproduction',
    '',
    `Baseline: \`${baselineFolder}\`. Candidate: \`${candidateFolder}\`. Written by \`pipeline compare\` from the two published report folders (differences.csv and statistics.csv); no raw samples are read.`,
    '',
    `**${summaryLine(r)}.**`,
    '',
    ...(host
      ? [
          `${hostLine(host)}.${r.changed + r.lost > 0 && hostCause(host) ? ` ${hostCause(host)!.replace(/^possible cause/, 'Possible cause of what changed or was lost')}.` : ''}`,
          '',
        ]
      : []),
    'A conclusion is a median difference a − b. Its direction is the sign of the difference when the report calls it detected (its interval excludes 0), else "no difference". held: the same direction in both; changed: opposite directions, both detected; lost: detected in the baseline only; gained: detected in the candidate only.',
    '',
    '## Conclusions',
    '',
    withSessions
      ? '| conclusion | baseline | candidate | status | baseline sessions same direction | candidate sessions same direction |\n|---|---|---|---|---|---|'
      : '| conclusion | baseline | candidate | status |\n|---|---|---|---|',
  ];
  for (const c of r.conclusions) {
    const cols = [md(conclusionLabel(c)), md(directionLabel(c.baseline, c.a, c.b)), md(directionLabel(c.candidate, c.a, c.b)), c.status];
    if (withSessions) cols.push(c.baselineSessions ?? '–', c.candidateSessions ?? '–');
    lines.push(`| ${cols.join(' | ')} |`);
  }
  lines.push(
    '',
    '## Cell medians',
    '',
    'Ratio = candidate P50 / baseline P50.',
    '',
    '| cohort | path | state | metric | baseline P50 | candidate P50 | ratio |',
    '|---|---|---|---|---:|---:|---:|',
  );
  for (const c of r.cells) {
    lines.push(
      `| ${c.cohort} | ${c.path} | ${c.state} | ${c.metric} | ${figure(c.baselineP50, c.unit)} | ${figure(c.candidateP50, c.unit)} | ${c.ratio === null ? '–' : c.ratio.toFixed(2)} |`,
    );
  }
  return lines.join('\n') + '\n';
}
