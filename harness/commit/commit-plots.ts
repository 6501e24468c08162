// The commit-diff growth plots (pure Vega-Lite specs): per sweep and state,
// every formal commit as a point (each round of each session, not only the
// P50) and both fitted curves per engine, the power law t = s·n^b (dashed)
// and the line t = floor + cost·n (solid), on log-log axes.
import type { Plot } from '../publish/plot.js';
import type { CommitAnalysis, CommitRowData } from './commit-analysis.js';
import { dimLabel, fixedText } from './commit-phrases.js';

export const growthPlotFile = (state: string, dimension: string): string => `growth-${dimension}-${state}.svg`;

/** Sizes spread evenly on the log scale from `lo` to `hi`, for drawing a fitted curve. */
function logSpaced(lo: number, hi: number, n = 40): number[] {
  return Array.from({ length: n }, (_, i) => Math.exp(Math.log(lo) + ((Math.log(hi) - Math.log(lo)) * i) / (n - 1)));
}

export function growthPlot(a: CommitAnalysis, rows: readonly CommitRowData[], state: string, dimension: string): Plot | null {
  const growth = a.growth.filter((g) => g.dimension === dimension && g.state === state);
  if (!growth.length) return null;
  const fixedDims = growth[0]!.fixed;
  const inSweep = (d: Record<string, number>): boolean => Object.entries(fixedDims).every(([k, v]) => d[k] === v);
  const points = rows
    .filter((r) => r.phase === 'formal' && r.ok && r.wallMs !== null && r.state === state && inSweep(r.dims))
    .map((r) => ({ size: r.dims[dimension]!, seconds: r.wallMs! / 1000, method: r.method, session: r.session, round: r.round }));
  if (!points.length) return null;
  const sizes = points.map((p) => p.size);
  const xs = logSpaced(Math.min(...sizes), Math.max(...sizes));
  const curves = growth.flatMap((g) => [
    ...(g.fit ? xs.map((n) => ({ size: n, seconds: (g.fit!.scale * n ** g.fit!.slope) / 1000, method: g.method, model: 'power law s·n^b' })) : []),
    ...(g.line
      ? xs.map((n) => ({ size: n, seconds: (g.line!.floor + g.line!.cost * n) / 1000, method: g.method, model: 'floor + cost·n' })).filter((p) => p.seconds > 0)
      : []),
  ]);
  const label = dimLabel[dimension] ?? dimension;
  // Axes end near the data (a log scale's "nice" ends can add a decade of empty space).
  const seconds = [...points, ...curves].map((p) => p.seconds);
  const x = {
    field: 'size',
    type: 'quantitative',
    scale: { type: 'log', nice: false, domain: [Math.min(...sizes) / 1.3, Math.max(...sizes) * 1.3] },
    title: label,
  };
  const y = {
    field: 'seconds',
    type: 'quantitative',
    scale: { type: 'log', nice: false, domain: [Math.min(...seconds) / 1.3, Math.max(...seconds) * 1.3] },
    title: 'docker commit wall time (s)',
  };
  const color = { field: 'method', type: 'nominal', title: 'engine', scale: { domain: ['naive', 'native'], range: ['#d95f02', '#1b9e77'] } };
  return {
    file: growthPlotFile(state, dimension),
    caption: `${state} commit against ${label} (${fixedText(fixedDims)})`,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      title: `${state} commit against ${label}, log-log`,
      width: 520,
      height: 300,
      layer: [
        {
          data: { values: points },
          mark: { type: 'point', filled: true, opacity: 0.6, size: 30 },
          encoding: {
            x,
            y,
            color,
            tooltip: [{ field: 'method' }, { field: 'size' }, { field: 'seconds', format: '.3f' }, { field: 'session' }, { field: 'round' }],
          },
        },
        {
          data: { values: curves },
          mark: { type: 'line', strokeWidth: 1.5 },
          encoding: {
            x,
            y,
            color,
            detail: { field: 'model' },
            strokeDash: {
              field: 'model',
              type: 'nominal',
              title: 'fit',
              scale: {
                domain: ['floor + cost·n', 'power law s·n^b'],
                range: [
                  [1, 0],
                  [5, 3],
                ],
              },
            },
          },
        },
      ],
      resolve: { scale: { strokeDash: 'independent' } },
      config: { legend: { orient: 'bottom', labelLimit: 300 } },
    },
  };
}
