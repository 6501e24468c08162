// Vega-Lite specs of the effect report's two plots (pure): a paired
// before/after dot plot (per row, each round's before and after joined) and
// a forest plot of the after/before ratio with its interval per row on a log
// axis, the practical floor shaded. Both fit a 1000 px column.
import type { SampleRow } from '../db/sample-row.js';
import type { Plot } from '../publish/plot.js';
import { effectSessionRows } from './effect-cell.js';
import type { MeasuredRow } from './effect-table-md.js';
import type { RowNote } from './effect-row-notes.js';
import { rowVerdict } from './effect-phrases.js';
import type { PracticalFloor } from './practical-floor.js';

const schema = 'https://vega.github.io/schema/vega-lite/v5.json';
const config = {
  font: 'sans-serif',
  axis: { labelLimit: 0, titleLimit: 0, labelFontSize: 11, titleFontSize: 12 },
  legend: { labelLimit: 0, titleLimit: 0, labelFontSize: 11 },
  header: { labelLimit: 0, titleLimit: 0, labelFontSize: 12, labelFontWeight: 'bold' },
  title: { limit: 0, fontSize: 14, subtitleFontSize: 11, anchor: 'start' },
};

/** Before and after of every formal round, joined, one panel per measured row (own y scale, 3 panels a line). */
export function pairedDotPlot(rows: readonly MeasuredRow[], samples: readonly SampleRow[]): Plot | null {
  const values = rows.flatMap((m) =>
    effectSessionRows(m.row, samples).map((s) => ({
      row: m.row.id,
      side: s.path,
      pair: `${m.row.id} S${s.session} r${s.round}`,
      session: s.session,
      round: s.round,
      value: s.value,
      unit: m.row.unit,
    })),
  );
  if (values.length === 0) return null;
  const x = { field: 'side', type: 'nominal', title: null, sort: ['before', 'after'], scale: { padding: 0.3 }, axis: { labelAngle: 0 } };
  const y = { field: 'value', type: 'quantitative', title: 'Ready, ms (own scale per row)', scale: { zero: false } };
  return {
    file: 'paired-rounds.svg',
    caption: 'Before and after of every formal round, joined by a line, one panel per measured row (each with its own y scale)',
    spec: {
      $schema: schema,
      title: { text: 'Before → after, round by round', subtitle: 'one line per formal round; colour: session' },
      config,
      data: { values },
      facet: { field: 'row', type: 'nominal', title: null, sort: rows.map((m) => m.row.id) },
      columns: 3,
      resolve: { scale: { y: 'independent' } },
      spec: {
        width: 220,
        height: 180,
        layer: [
          {
            mark: { type: 'line', opacity: 0.45, strokeWidth: 1 },
            encoding: { x, y, detail: { field: 'pair' }, color: { field: 'session', type: 'nominal' } },
          },
          {
            mark: { type: 'point', filled: true, size: 30 },
            encoding: {
              x,
              y,
              color: { field: 'session', type: 'nominal', title: 'session' },
              tooltip: [
                { field: 'row' },
                { field: 'side' },
                { field: 'session', type: 'nominal' },
                { field: 'round', type: 'quantitative' },
                { field: 'value', type: 'quantitative', format: '.1f', title: 'ms' },
              ],
            },
          },
        ],
      },
    },
  };
}

/** The after/before ratio of medians with its interval per row, log x axis, the band below the practical floor shaded. */
export function ratioForestPlot(rows: readonly MeasuredRow[], noteOf: (id: string) => RowNote, floor: PracticalFloor): Plot | null {
  const values = rows
    .filter((m) => m.cell.comparison.observed !== null && m.cell.comparison.low !== null && m.cell.comparison.high !== null)
    .map((m) => ({
      row: m.row.id,
      ratio: m.cell.comparison.observed,
      low: m.cell.comparison.low,
      high: m.cell.comparison.high,
      verdict: rowVerdict(m, noteOf(m.row.id)),
    }));
  if (values.length === 0) return null;
  const lowest = Math.min(...values.map((v) => v.low!), 1 - floor.minRatioChange);
  const highest = Math.max(...values.map((v) => v.high!), 1 + floor.minRatioChange);
  const domain = [lowest / 1.15, highest * 1.15];
  const x = { type: 'quantitative', title: 'after / before, ratio of medians (log scale)', scale: { type: 'log', domain, nice: false } };
  const verdictColor = {
    field: 'verdict',
    type: 'nominal',
    title: 'verdict',
    scale: {
      domain: ['kept', 'too small to keep', 'dropped', 'control failed', 'control held'],
      range: ['#2a9d4b', '#7f7f7f', '#e08a1e', '#d62728', '#1f77b4'],
    },
  };
  const yEnc = { field: 'row', type: 'nominal', title: null, sort: values.map((v) => v.row) };
  return {
    file: 'ratio-forest.svg',
    caption: 'After/before ratio of medians with its interval per measured row, log axis; shaded: ratios too close to 1 to keep (analysis.practical)',
    spec: {
      $schema: schema,
      title: {
        text: 'Effect per row: after / before',
        subtitle: ['point: ratio of medians; bar: 95% two-level interval; left of 1 is faster', 'shaded: within the ratio floor (the ms floor is not drawn)'],
      },
      config,
      width: 560,
      height: { step: 34 },
      layer: [
        {
          data: { values: [{ a: 1 - floor.minRatioChange, b: 1 + floor.minRatioChange }] },
          mark: { type: 'rect', color: '#ddd', opacity: 0.7 },
          encoding: { x: { ...x, field: 'a' }, x2: { field: 'b' } },
        },
        { data: { values: [{ one: 1 }] }, mark: { type: 'rule', color: '#555', strokeDash: [4, 3] }, encoding: { x: { ...x, field: 'one' } } },
        {
          data: { values },
          layer: [
            {
              mark: { type: 'rule', strokeWidth: 2 },
              encoding: { y: yEnc, x: { ...x, field: 'low' }, x2: { field: 'high' }, color: verdictColor },
            },
            {
              mark: { type: 'point', filled: true, size: 70 },
              encoding: {
                y: yEnc,
                x: { ...x, field: 'ratio' },
                color: verdictColor,
                tooltip: [
                  { field: 'row' },
                  { field: 'ratio', type: 'quantitative', format: '.3f' },
                  { field: 'low', type: 'quantitative', format: '.3f' },
                  { field: 'high', type: 'quantitative', format: '.3f' },
                  { field: 'verdict' },
                ],
              },
            },
          ],
        },
      ],
    },
  };
}
