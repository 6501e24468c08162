// Text, history.md and history.html of `pipeline history`, and its --json
// shape. Pure (the HTML gets its plots as SVG text).
import { escapeHtml } from '../document/inline-html.js';
import { fixed } from '../report/format-number.js';
import { describeInputs } from './attribution.js';
import type { History, ReportedChange } from './build-history.js';
import { PERMUTATIONS, SIGNIFICANCE } from './change-points.js';

const pct = (ratio: number): string => `${ratio >= 1 ? '+' : ''}${fixed((ratio - 1) * 100, 0)}%`;
const figure = (v: number | null, unit: string): string => (v === null ? '–' : unit === 'bytes' ? fixed(v, 0) : fixed(v, 1));

/** "shell lazy cold ready +34% [29, 40] between run 3 and run 4 (p = 0.002); changed: …; host: same" */
export function changeLine(c: ReportedChange): string {
  const interval = Number.isFinite(c.low) ? ` [${fixed((c.low - 1) * 100, 0)}, ${fixed((c.high - 1) * 100, 0)}]` : '';
  return `${c.cohort} ${c.path} ${c.state} ${c.metric} ${pct(c.ratio)}${interval} between run ${c.run - 1} and run ${c.run} (p = ${fixed(c.pValue, 3)}); changed: ${describeInputs(c.changed, c.hostKnown)}`;
}

export const METHOD =
  `Change points: E-divisive means (Matteson & James 2014, α = 1) on the per-session medians, split only between runs, ` +
  `permutation test with ${PERMUTATIONS} permutations at significance ${SIGNIFICANCE}; a change is reported only when, in addition, ` +
  `the 95% Student's t intervals of the session medians on its two sides (from the previous change to the next) separate, ` +
  `which needs 3 or more sessions on each side. Ratio: after/before of the sides' geometric means, 95% Welch interval on the logarithms. ` +
  `Assumes independent sessions, identically distributed between change points, in the order of the series.`;

/** `2/2 noisy` from the archived sessions' load, '' when not recorded. */
function noisyOf(r: History['runs'][number]): string {
  const loads = (r.record?.sessions ?? []).map((s) => s.noise).filter((n) => !!n);
  return loads.length ? `${loads.filter((n) => n!.noisy).length}/${loads.length} noisy` : '';
}

function pad(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return (
    rows
      .map((r) =>
        r
          .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

function cellRows(h: History): string[][] {
  const rows = [['cell', ...h.runs.map((_, i) => `run ${i + 1}`)]];
  for (const c of h.cells) {
    const at = new Set(c.changes.filter((x) => x.reported).map((x) => x.run));
    rows.push([
      `${c.cohort} ${c.path} ${c.state} ${c.metric} (${c.unit})`,
      ...h.runs.map((_, i) => {
        const p = c.points.find((x) => x.run === i + 1);
        return `${at.has(i + 1) ? '| ' : ''}${p ? figure(p.p50, c.unit) : '–'}`;
      }),
    ]);
  }
  return rows;
}

function conclusionRows(h: History): string[][] {
  const rows = [['conclusion', ...h.runs.map((_, i) => `run ${i + 1}`)]];
  for (const c of h.conclusions) {
    rows.push([
      `${c.cohort} ${c.state} ${c.metric}: ${c.a} − ${c.b}`,
      ...h.runs.map((_, i) => {
        const p = c.points.find((x) => x.run === i + 1);
        return p ? `${figure(p.value, 'ms')}${p.detected ? '*' : ''}` : '–';
      }),
    ]);
  }
  return rows;
}

function notReported(h: History): string[] {
  return h.cells.flatMap((c) =>
    c.changes.filter((x) => !x.reported).map((x) => `${c.cohort} ${c.path} ${c.state} ${c.metric} at run ${x.run} (p = ${fixed(x.pValue, 3)}): ${x.why}`),
  );
}

export function renderHistoryText(h: History, title: string): string {
  const out = [`${title}: ${h.runs.length} runs`];
  h.runs.forEach((r, i) => out.push(`  run ${i + 1}  ${r.id}  ${r.time}${r.label ? `  ${r.label}` : ''}${noisyOf(r) ? `  ${noisyOf(r)}` : ''}  ${r.folder}`));
  out.push('', 'P50 per run (| before the first run after a reported change):', pad(cellRows(h)).trimEnd());
  out.push('', 'conclusions, median difference per run (* detected):', pad(conclusionRows(h)).trimEnd());
  out.push('', h.changes.length ? `${h.changes.length} change(s):` : 'no change reported');
  for (const c of h.changes) out.push(`  ${changeLine(c)}`);
  const skipped = notReported(h);
  if (skipped.length) out.push('', 'significant but not reported:', ...skipped.map((s) => `  ${s}`));
  return out.join('\n') + '\n';
}

function mdTable(rows: string[][]): string {
  return [
    `| ${rows[0]!.join(' | ')} |`,
    `|${rows[0]!.map((_, i) => (i ? '---:' : '---')).join('|')}|`,
    ...rows.slice(1).map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

export function renderHistoryMd(h: History, title: string): string {
  const lines = [`# History: ${title}`, ''];
  lines.push(h.changes.length ? `${h.changes.length} change(s) over ${h.runs.length} runs:` : `No change reported over ${h.runs.length} runs.`, '');
  for (const c of h.changes) lines.push(`- ${changeLine(c)}`);
  lines.push(
    '',
    '## Runs',
    '',
    mdTable([
      ['run', 'id', 'time', 'label', 'sessions', 'folder'],
      ...h.runs.map((r, i) => [String(i + 1), r.id, r.time, r.label ?? '', noisyOf(r), r.folder]),
    ]),
  );
  lines.push('', '## P50 per run', '', 'A `|` marks the first run after a reported change.', '', mdTable(cellRows(h)));
  lines.push('', '## Conclusions', '', 'Median difference per run; `*` detected.', '', mdTable(conclusionRows(h)));
  const skipped = notReported(h);
  if (skipped.length) lines.push('', '## Significant but not reported', '', ...skipped.map((s) => `- ${s}`));
  lines.push('', '## Method', '', METHOD, '');
  return lines.join('\n');
}

export function renderHistoryHtml(h: History, title: string, svgs: readonly string[]): string {
  const style =
    'body{font-family:sans-serif;margin:1.5em;max-width:72em;color:#222}h1{font-size:1.4em}ul.changes li{margin:.3em 0}' +
    '.plots{display:flex;flex-wrap:wrap;gap:1em}.plot{border:1px solid #ddd;padding:.4em}table{border-collapse:collapse;font-size:.85em}' +
    'td,th{border:1px solid #ccc;padding:.15em .5em;text-align:right}td:first-child,th:first-child{text-align:left}.method{font-size:.85em;color:#555}';
  const changes = h.changes.length
    ? `<ul class="changes">${h.changes.map((c) => `<li>${escapeHtml(changeLine(c))}</li>`).join('')}</ul>`
    : `<p>No change reported over ${h.runs.length} runs.</p>`;
  const table = (rows: string[][]): string =>
    `<table><tr>${rows[0]!.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr>${rows
      .slice(1)
      .map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`)
      .join('')}</table>`;
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<title>History: ${escapeHtml(title)}</title><style>${style}</style></head><body>`,
    `<h1>History: ${escapeHtml(title)}</h1>`,
    `<p>${h.runs.length} runs, ${escapeHtml(h.runs[0]?.time ?? '')} to ${escapeHtml(h.runs[h.runs.length - 1]?.time ?? '')}. ${h.changes.length} change(s) reported.</p>`,
    changes,
    '<p class="method">Each plot: grey points, the median of each session; blue diamonds, the run\'s P50; blue bars, the 95% t interval of the mean of the session medians (3 or more sessions); red line, a reported change before that run; grey dashed line, a significant change not reported (its sides\' intervals overlap, or a side has fewer than 3 sessions).</p>',
    `<div class="plots">${svgs.map((s) => `<div class="plot">${s}</div>`).join('')}</div>`,
    '<h2>Runs</h2>',
    table([['run', 'id', 'time', 'label', 'sessions'], ...h.runs.map((r, i) => [String(i + 1), r.id, r.time, r.label ?? '', noisyOf(r)])]),
    '<h2>P50 per run</h2>',
    table(cellRows(h)),
    '<h2>Conclusions</h2>',
    table(conclusionRows(h)),
    `<p class="method">${escapeHtml(METHOD)}</p>`,
    '</body></html>',
    '',
  ].join('\n');
}

/** The --json shape; it ends with runs and changes as the CLI documents. */
export function historyJson(h: History): Record<string, unknown> {
  return {
    cells: h.cells.map((c) => ({
      cohort: c.cohort,
      path: c.path,
      state: c.state,
      metric: c.metric,
      unit: c.unit,
      points: c.points.map((p) => ({ run: p.run, p50: p.p50, sessions: p.sessions, low: p.low, high: p.high })),
    })),
    conclusions: h.conclusions,
    runs: h.runs.map((r) => ({ id: r.id, folder: r.folder, time: r.time })),
    changes: h.changes.map((c) => ({
      cohort: c.cohort,
      path: c.path,
      state: c.state,
      metric: c.metric,
      run: c.run,
      ratio: c.ratio,
      low: c.low,
      high: c.high,
      changed: c.changed,
    })),
  };
}
