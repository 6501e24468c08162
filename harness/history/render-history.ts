// Text, history.md and history.html of `pipeline history`, and its --json
// shape. Pure: history.md and history.html render one document
// (historyDocument) through the reports' renderers; the page gets its plots
// as SVG text, the Markdown as the SVG files --write puts beside it.
import { differenceLabel } from '../analysis/difference-record.js';
import { escapeHtml } from '../document/inline-html.js';
import { figure as figureBlock, list, paragraph, section, table, type Block, type ReportDocument } from '../document/document-model.js';
import { renderHtmlBody } from '../document/render-html.js';
import { renderMarkdown } from '../document/render-markdown.js';
import { fixed } from '../publish/format-number.js';
import { describeInputs, noisyFlags } from './attribution.js';
import type { History, ReportedChange, SharedShift } from './build-history.js';
import { MIN_SIDE_SESSIONS, SIGNIFICANCE, type Spread } from './change-points.js';
import { MIN_FACTOR_CELLS } from './run-drift.js';
import { BETWEEN_RUN_SOURCE } from '../stats/host-kind-drift.js';
import { canaryText } from '../compare/run-canary.js';

const pct = (ratio: number): string => `${ratio >= 1 ? '+' : ''}${fixed((ratio - 1) * 100, 0)}%`;
const figure = (v: number | null, unit: string): string => (v === null ? '–' : unit === 'bytes' ? fixed(v, 0) : fixed(v, 1));
const interval = (low: number, high: number): string => (Number.isFinite(low) ? ` [${fixed((low - 1) * 100, 0)}, ${fixed((high - 1) * 100, 0)}]` : '');
const spreadText = (s: Spread): string =>
  s.source === 'replicates'
    ? `between-run sd ${fixed(s.sd, 3)} from replicate runs ${s.runs.join(', ')}`
    : `between-run sd ${fixed(s.sd, 3)}, host-kind figure`;

/** "shell lazy cold ready +34% [29, 40] beyond the shared factor, between run 3 and run 4 (p = 0.002; …); changed: …; host: same" — one line. */
export function changeLine(c: ReportedChange, verbose = false): string {
  return `${c.cohort} ${c.path} ${c.state} ${c.metric} ${pct(c.ratio)}${interval(c.low, c.high)} beyond the shared factor, between run ${c.run - 1} and run ${c.run} (p = ${fixed(c.pValue, 3)}; ${spreadText(c.spread)}); changed: ${describeInputs(c.changed, c.attribution, verbose)}`;
}

/** The `cause` of a shift: its kind and what changed. */
export function shiftCause(s: SharedShift, verbose = false): string {
  const moved = s.classCells
    ? `; ${s.classCells} cell${s.classCells === 1 ? '' : 's'} moved beyond the shared factor with it (the class's, not cell changes)`
    : '';
  return `${s.kind}${moved}: ${describeInputs(s.attribution.changed, s.attribution, verbose)}`;
}

/** "every cell ×1.15 [1.12, 1.18], canary ×1.13 (pieces …), between run 3 and run 4 (shared factor of 6 cells, p = …): run effect: …" */
export function shiftLine(s: SharedShift, verbose = false): string {
  const range = Number.isFinite(s.low) ? ` [${fixed(s.low, 2)}, ${fixed(s.high, 2)}]` : '';
  return `every cell ×${fixed(s.ratio, 2)}${range}, ${canaryText(s.canary)}, between run ${s.run - 1} and run ${s.run} (shared factor of ${s.cells} cells, p = ${fixed(s.pValue, 3)}; ${spreadText(s.spread)}); ${shiftCause(s, verbose)}`;
}

const sessionsText = (h: History): string => {
  const counts = h.runs.map((r) => Math.max(0, ...Object.values(r.sessionMedians).map((v) => v.length)));
  const lo = Math.min(...counts);
  const hi = Math.max(...counts);
  return `${h.runs.length} run${h.runs.length === 1 ? '' : 's'} of ${lo === hi ? lo : `${lo}–${hi}`} session${hi === 1 ? '' : 's'}`;
};

/** What these runs could not show: "6 runs of 3 sessions cannot show a cell change smaller than ±9% or a shift of every cell smaller than ±25%". */
export function smallestLine(h: History): string {
  const { cell, shift } = h.smallest;
  if (cell === null && shift === null) return `${sessionsText(h)} cannot show any change: each side of a change needs ${MIN_SIDE_SESSIONS} sessions`;
  const size = (f: number): string => `±${fixed((f - 1) * 100, 0)}%`;
  const parts = [
    ...(cell !== null ? [`a cell change smaller than ${size(cell)}`] : []),
    ...(shift !== null
      ? [`a shift of every cell smaller than ${size(shift)}`]
      : h.factorCells === 0
        ? [`a shift of every cell at all (fewer than ${MIN_FACTOR_CELLS} cells)`]
        : []),
  ];
  return `${sessionsText(h)} cannot show ${parts.join(' or ')}`;
}

export const METHOD =
  `Each run's level of a cell is the mean of the logs of its session medians; runs, not sessions, are the units. ` +
  `A factor shared by every cell of a run (median polish over ${MIN_FACTOR_CELLS} or more cells) is taken out first; a step of that factor is a shift of every cell, reported once with its cause; ` +
  `a cell change is a step of the cell's level beyond it. A step compares the runs before it with the runs from it on against the between-run SD of one run's level: ` +
  `pooled from the replicate runs (same sample-stage key, same side of the step, each group around its own mean), else the ${BETWEEN_RUN_SOURCE}; never from the sessions of one run. ` +
  `A step between two runs whose inputs did not change (replicates) compares only the runs between the input changes around it. ` +
  `A shift is said with the host canary's ratio over the same runs, where run.json recorded one. ` +
  `Binary segmentation, two-sided t test, Bonferroni-corrected over every candidate step at ${SIGNIFICANCE}; each side needs ${MIN_SIDE_SESSIONS} sessions. ` +
  `Ratio: after/before, 95% t interval. Causes named: inputs of the stages that make the samples (sample, and pin, prepare, warmup before it), pins, host fingerprint, host load; ` +
  `code of the stages that only read samples (verify, analyze, report) is counted, never named.`;

/** `1/3 noisy` (the flag calibrated on the canary), `3/3 noisy (fixed thresholds)` (an older run's), '' when not recorded. */
function noisyOf(r: History['runs'][number]): string {
  return noisyFlags(r)?.text ?? '';
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

/** `*` lower or higher (detected), `=` equivalent within the practical margin, `?` undecided; nothing for a report without verdicts that detected none. */
function verdictMark(p: { detected: boolean; verdict: string | null }): string {
  if (p.detected) return '*';
  return p.verdict === 'equivalent' ? '=' : p.verdict === 'undecided' ? '?' : '';
}

const marksLegend = '* lower or higher (detected), = equivalent within the practical margin, ? undecided';

function conclusionRows(h: History): string[][] {
  const rows = [['conclusion', ...h.runs.map((_, i) => `run ${i + 1}`)]];
  for (const c of h.conclusions) {
    rows.push([
      differenceLabel(c),
      ...h.runs.map((_, i) => {
        const p = c.points.find((x) => x.run === i + 1);
        return p ? `${figure(p.value, 'ms')}${verdictMark(p)}` : '–';
      }),
    ]);
  }
  return rows;
}

export function renderHistoryText(h: History, title: string, verbose = false): string {
  const out = [`${title}: ${h.runs.length} runs`];
  h.runs.forEach((r, i) => out.push(`  run ${i + 1}  ${r.id}  ${r.time}${r.label ? `  ${r.label}` : ''}${noisyOf(r) ? `  ${noisyOf(r)}` : ''}  ${r.folder}`));
  out.push('', 'P50 per run (| before the first run after a reported change):', pad(cellRows(h)).trimEnd());
  out.push('', `conclusions, median difference per run (${marksLegend}):`, pad(conclusionRows(h)).trimEnd());
  out.push('', ...summaryLines(h, verbose));
  return out.join('\n') + '\n';
}

/** A cell change without its cause, for a run that changed several cells: the cause is said once above them. */
function cellLine(c: ReportedChange): string {
  return `${c.cohort} ${c.path} ${c.state} ${c.metric} ${pct(c.ratio)}${interval(c.low, c.high)} beyond the shared factor (p = ${fixed(c.pValue, 3)}; ${spreadText(c.spread)})`;
}

/**
 * The shifts of every cell, then the cell changes, one line each (a run that changed several cells says
 * what changed once, above its cells); or what the runs cannot show.
 */
function summaryLines(h: History, verbose: boolean, bullet = '  '): string[] {
  const out: string[] = [];
  if (h.shifts.length) out.push(`${h.shifts.length} shift(s) of every cell:`, ...h.shifts.map((s) => `${bullet}${shiftLine(s, verbose)}`));
  if (h.changes.length) {
    out.push(`${h.changes.length} cell change(s):`);
    for (const run of [...new Set(h.changes.map((c) => c.run))]) {
      const at = h.changes.filter((c) => c.run === run);
      if (at.length === 1) out.push(`${bullet}${changeLine(at[0]!, verbose)}`);
      else
        out.push(
          `${bullet}${at.length} cells between run ${run - 1} and run ${run}; changed: ${describeInputs(at[0]!.attribution.changed, at[0]!.attribution, verbose)}`,
          ...at.map((c) => `${bullet}  ${cellLine(c)}`),
        );
    }
  }
  if (!h.changes.length) out.push(`no cell change reported; ${smallestLine(h)}`);
  return out;
}

/** history.md and history.html as one document (document/document-model.ts): the changes first, then the plots, runs, P50s, conclusions and method. */
export function historyDocument(h: History, title: string, plots: readonly string[] = []): ReportDocument {
  const rows = (t: string[][]): [string[], string[][]] => [t[0]!, t.slice(1)];
  return {
    title: `History: ${title}`,
    opening: [
      paragraph(
        `${h.runs.length} runs, ${h.runs[0]?.time ?? ''} to ${h.runs[h.runs.length - 1]?.time ?? ''}. ${h.shifts.length} shift(s) of every cell, ${h.changes.length} cell change(s) reported.`,
      ),
      ...summaryBlocks(h),
    ],
    sections: [
      ...section(
        'Plots',
        plots.length
          ? [
              paragraph(
                "Each plot: grey points, the median of each session; blue diamonds, the run's P50; blue bars, the 95% t interval of the mean of the session medians (3 or more sessions); red line, a reported cell change (beyond the shared factor of the runs) before that run.",
              ),
              ...plots.map((file, i) => figureBlock(file, `${cellName(h.cells[i])}: session medians and P50 per run`)),
            ]
          : [],
      ),
      ...section('Runs', [
        table(
          ['run', 'id', 'time', 'label', 'sessions', 'folder'],
          h.runs.map((r, i) => [String(i + 1), r.id, r.time, r.label ?? '', noisyOf(r), r.folder]),
        ),
      ]),
      ...section('P50 per run', [paragraph('A `|` marks the first run after a reported change.'), table(...rows(cellRows(h)))]),
      ...section('Conclusions', [paragraph(`Median difference per run; ${marksLegend.replace(/([*=?])/g, '`$1`')}.`), table(...rows(conclusionRows(h)))]),
      ...section('Method', [paragraph(METHOD)]),
    ],
    appendix: [],
  };
}

/** summaryLines as blocks: the shifts as a list, each run's changes as a list, several cells of one run under the line naming what changed. */
function summaryBlocks(h: History): Block[] {
  const out: Block[] = [];
  if (h.shifts.length) out.push(paragraph(`${h.shifts.length} shift(s) of every cell:`), list(h.shifts.map((x) => shiftLine(x))));
  for (const run of [...new Set(h.changes.map((c) => c.run))]) {
    const at = h.changes.filter((c) => c.run === run);
    if (at.length === 1) out.push(list([changeLine(at[0]!)]));
    else
      out.push(
        paragraph(
          `${at.length} cells between run ${run - 1} and run ${run}; changed: ${describeInputs(at[0]!.attribution.changed, at[0]!.attribution, false)}`,
        ),
        list(at.map((c) => cellLine(c))),
      );
  }
  if (!h.changes.length) out.push(paragraph(`No cell change reported; ${smallestLine(h)}`));
  return out;
}

const cellName = (c: History['cells'][number] | undefined): string => (c ? `${c.cohort} ${c.path} ${c.state} ${c.metric}` : '');

export function renderHistoryMd(h: History, title: string, plots: readonly string[] = []): string {
  return renderMarkdown(historyDocument(h, title, plots));
}

/** The page: the document's HTML body, each plot's SVG text in place of its figure (`svgs[file]`). */
export function renderHistoryHtml(h: History, title: string, svgs: Readonly<Record<string, string>>): string {
  const style =
    'body{font-family:sans-serif;margin:1.5em;max-width:72em;color:#222}h1{font-size:1.4em}li{margin:.3em 0}' +
    'figure{display:inline-block;border:1px solid #ddd;padding:.4em;margin:.5em}table{border-collapse:collapse;font-size:.85em}' +
    'div.table{overflow-x:auto}td,th{border:1px solid #ccc;padding:.15em .5em;text-align:right}td:first-child,th:first-child{text-align:left}';
  const body = renderHtmlBody(
    historyDocument(h, title, Object.keys(svgs)),
    (f) => `<figure>${svgs[f.file] ?? ''}<figcaption>${escapeHtml(f.caption)}</figcaption></figure>`,
  );
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>History: ${escapeHtml(title)}</title><style>${style}</style></head><body>`,
    body,
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
    shifts: h.shifts.map((s) => ({ run: s.run, ratio: s.ratio, low: s.low, high: s.high, cells: s.cells, cause: shiftCause(s), canary: s.canary })),
    smallest: h.smallest,
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
