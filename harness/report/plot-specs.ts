// Vega-Lite specs of the report's plots, built from the statistics and the
// launch points (pure). Labels are never truncated (labelLimit 0), every facet
// has its own x scale, and every point's hover names its launch.
import { formalOk, type LaunchPoint } from './launch-points.js';

import type { Plot } from '../publish/plot.js';
export type { Plot };
import { schema, config } from '../publish/plot.js';
export { schema, config };

/** What hovering a launch shows. */
export const launchTooltip = [
  { field: 'path', type: 'nominal' },
  { field: 'state', type: 'nominal' },
  { field: 'round', type: 'quantitative', title: 'round' },
  { field: 'session', type: 'nominal', title: 'session' },
  { field: 'position', type: 'quantitative', title: 'position in round' },
  { field: 'previousPath', type: 'nominal', title: 'previous path' },
  { field: 'launchId', type: 'nominal', title: 'launch id' },
];

/** The fields every per-launch datum carries for the tooltip. */
export const launchFields = (p: LaunchPoint): Record<string, unknown> => ({
  path: p.path,
  state: p.state,
  round: p.round,
  session: p.session,
  position: p.position,
  previousPath: p.previousPath ?? (p.position === 0 ? 'none (first)' : null),
  launchId: p.launchId,
});

function safe(id: string): string {
  return id.toLowerCase().replace(/[^a-z0-9_-]+/g, '-');
}

/** ECDFs of Ready and Completion for one cohort: rows are metrics, columns states, log x, one step line per path. */
export function ecdfPlot(cohort: string, points: readonly LaunchPoint[], paths: readonly string[], states: readonly string[]): Plot | null {
  const values: Record<string, unknown>[] = [];
  for (const p of points.filter((x) => x.cohort === cohort && formalOk(x))) {
    for (const [metric, v] of [
      ['Ready', p.readyMs],
      ['Completion', p.completionMs],
    ] as const) {
      if (v !== null && v > 0) values.push({ ...launchFields(p), metric, valueMs: v });
    }
  }
  if (values.length === 0) return null;
  const x = { field: 'valueMs', type: 'quantitative', title: 'ms (log scale)', scale: { type: 'log', nice: false, padding: 8 } };
  const y = { field: 'fraction', type: 'quantitative', title: 'fraction of launches ≤ x', scale: { domain: [0, 1] } };
  const color = { field: 'path', type: 'nominal', title: 'path', sort: [...paths] };
  return {
    file: `ecdf-${safe(cohort)}.svg`,
    caption: `Empirical distributions of Ready and Completion, ${cohort}, per state, log x axis, every valid formal launch`,
    spec: {
      $schema: schema,
      title: {
        text: `${cohort}: empirical distribution of Ready and Completion`,
        subtitle: 'every valid formal launch; log x axis, each panel with its own x scale',
      },
      config,
      data: { values },
      transform: [{ window: [{ op: 'cume_dist', as: 'fraction' }], sort: [{ field: 'valueMs' }], groupby: ['path', 'state', 'metric'] }],
      facet: {
        row: { field: 'metric', type: 'nominal', title: null, sort: ['Ready', 'Completion'] },
        column: { field: 'state', type: 'nominal', title: null, sort: [...states] },
      },
      spec: {
        width: 300,
        height: 180,
        layer: [
          { mark: { type: 'line', interpolate: 'step-after' }, encoding: { x, y, color } },
          {
            mark: { type: 'point', filled: true, size: 18 },
            encoding: { x, y, color, tooltip: [...launchTooltip, { field: 'valueMs', type: 'quantitative', title: 'ms', format: '.1f' }] },
          },
        ],
      },
      resolve: { scale: { x: 'independent' }, axis: { x: 'independent' } },
    },
  };
}

/** Every launch of every cohort in run order (all phases), Ready on a log axis, coloured by path. */
export function roundsPlot(points: readonly LaunchPoint[], cohorts: readonly string[], paths: readonly string[]): Plot | null {
  const values = points
    .filter((p) => p.readyMs !== null && p.readyMs > 0)
    .map((p) => ({ ...launchFields(p), cohort: p.cohort, phase: p.phase, runIndex: p.runIndex, readyMs: p.readyMs }));
  if (values.length === 0) return null;
  return {
    file: 'rounds.svg',
    caption:
      'Ready of every launch in run order (preflight, warmup and formal), log y axis, coloured by path, one panel per cohort: drift and order effects show as trends',
    spec: {
      $schema: schema,
      title: {
        text: 'Ready of every launch in run order',
        subtitle: 'x: launch number within the cohort (all phases); hollow: preflight and warmup; log y axis, each panel with its own scale',
      },
      config,
      data: { values },
      facet: { row: { field: 'cohort', type: 'nominal', title: null, sort: [...cohorts] } },
      spec: {
        width: 640,
        height: 200,
        mark: { type: 'point', size: 28 },
        encoding: {
          x: { field: 'runIndex', type: 'quantitative', title: 'launch number in run order' },
          y: { field: 'readyMs', type: 'quantitative', title: 'Ready (ms, log scale)', scale: { type: 'log' } },
          color: { field: 'path', type: 'nominal', title: 'path', sort: [...paths] },
          shape: { field: 'state', type: 'nominal', title: 'state' },
          fill: { condition: { test: "datum.phase === 'formal'", field: 'path', type: 'nominal', sort: [...paths], legend: null }, value: 'transparent' },
          tooltip: [...launchTooltip, { field: 'phase', type: 'nominal' }, { field: 'readyMs', type: 'quantitative', title: 'Ready (ms)', format: '.1f' }],
        },
      },
      resolve: { scale: { x: 'independent', y: 'independent' } },
    },
  };
}

/** Content bytes of every valid formal launch per path and state (log x), one panel per cohort; 0-byte cells are named in the subtitle. */
export function bytesPlot(points: readonly LaunchPoint[], cohorts: readonly string[], paths: readonly string[], states: readonly string[]): Plot | null {
  const formal = points.filter((p) => formalOk(p) && p.contentBytes !== null);
  const cellLabel = (p: LaunchPoint): string => `${p.path} · ${p.state}`;
  const cellOrder = paths.flatMap((p) => states.map((s) => `${p} · ${s}`));
  const values = formal
    .filter((p) => p.contentBytes! > 0)
    .map((p) => ({ ...launchFields(p), cohort: p.cohort, cell: cellLabel(p), contentBytes: p.contentBytes }));
  if (values.length === 0) return null;
  const zero = new Map<string, Set<string>>();
  for (const p of formal.filter((x) => x.contentBytes === 0)) zero.set(p.cohort, (zero.get(p.cohort) ?? new Set()).add(cellLabel(p)));
  // at most 4 cells a subtitle line, so that seven paths' warm cells do not widen the plot
  const zeroText = cohorts
    .filter((c) => zero.has(c))
    .flatMap((c) => {
      const cells = cellOrder.filter((l) => zero.get(c)!.has(l));
      return Array.from({ length: Math.ceil(cells.length / 4) }, (_, i) => `${i === 0 ? `${c}: ` : '  '}${cells.slice(4 * i, 4 * i + 4).join(', ')}`);
    });
  return {
    file: 'content-bytes.svg',
    caption: 'Content bytes (image data bytes received) of every valid formal launch per path and cache state, log x axis, one panel per cohort',
    spec: {
      $schema: schema,
      title: {
        text: 'Content bytes per launch (image data bytes received)',
        subtitle: [
          'log x axis; one dot per launch, darker where launches received the same count',
          ...(zeroText.length ? ['launches with 0 bytes are not drawn (a log axis has no 0):', ...zeroText] : ['no launch received 0 bytes']),
        ],
      },
      config,
      data: { values },
      facet: { row: { field: 'cohort', type: 'nominal', title: null, sort: [...cohorts] } },
      spec: {
        width: 420,
        mark: { type: 'point', filled: true, size: 60, opacity: 0.35 },
        encoding: {
          y: { field: 'cell', type: 'nominal', title: null, sort: cellOrder },
          x: { field: 'contentBytes', type: 'quantitative', title: 'content bytes (log scale)', scale: { type: 'log' }, axis: { format: '~s' } },
          color: { field: 'path', type: 'nominal', title: 'path', sort: [...paths], legend: null },
          tooltip: [...launchTooltip, { field: 'contentBytes', type: 'quantitative', title: 'content bytes', format: ',d' }],
        },
      },
      resolve: { scale: { x: 'independent', y: 'independent' } },
    },
  };
}
