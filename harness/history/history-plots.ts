// One Vega-Lite plot per cell of a history: each session's median (small
// points), the run's P50 (large point), the run's between-session interval
// (a bar, 3 or more sessions), and the change points (a red rule before the
// first run after a reported change; grey dashed for a significant one that is
// not reported). Pure.
import type { PlotSpec } from '../publish/plot-adapter.js';
import type { CellSeries } from './build-history.js';

export function cellPlot(cell: CellSeries, runIds: readonly string[]): PlotSpec {
  const sessions = cell.points.flatMap((p) => p.sessions.map((v, i) => ({ run: p.run, runId: runIds[p.run - 1], session: i + 1, value: v })));
  const runs = cell.points.map((p) => ({ run: p.run, runId: runIds[p.run - 1], p50: p.p50, low: p.low, high: p.high }));
  const rules = cell.changes.map((c) => ({ at: c.run - 0.5, reported: c.reported ? 'reported change' : 'significant, not reported' }));
  const x = {
    field: 'run',
    type: 'quantitative',
    title: 'run',
    scale: { domain: [0.5, runIds.length + 0.5], nice: false },
    axis: { tickMinStep: 1, format: 'd' },
  };
  const y = { type: 'quantitative', title: `${cell.metric} (${cell.unit})`, scale: { zero: false } };
  const layers: Record<string, unknown>[] = [
    {
      data: { values: sessions },
      mark: { type: 'point', filled: true, size: 30, color: '#999' },
      encoding: { x, y: { ...y, field: 'value' }, tooltip: [{ field: 'runId', title: 'run' }, { field: 'session' }, { field: 'value', format: '.3f' }] },
    },
    {
      data: { values: runs.filter((r) => r.low !== null) },
      mark: { type: 'rule', color: '#1f77b4', strokeWidth: 2 },
      encoding: { x, y: { ...y, field: 'low' }, y2: { field: 'high' } },
    },
    {
      data: { values: runs.filter((r) => r.p50 !== null) },
      mark: { type: 'point', filled: true, size: 90, color: '#1f77b4', shape: 'diamond' },
      encoding: {
        x,
        y: { ...y, field: 'p50' },
        tooltip: [
          { field: 'runId', title: 'run' },
          { field: 'p50', title: 'P50', format: '.3f' },
        ],
      },
    },
  ];
  if (rules.length) {
    layers.push({
      data: { values: rules },
      mark: { type: 'rule', strokeWidth: 2 },
      encoding: {
        x: { ...x, field: 'at' },
        color: {
          field: 'reported',
          type: 'nominal',
          title: null,
          scale: { domain: ['reported change', 'significant, not reported'], range: ['#d62728', '#aaa'] },
        },
        strokeDash: {
          field: 'reported',
          type: 'nominal',
          legend: null,
          scale: {
            domain: ['reported change', 'significant, not reported'],
            range: [
              [1, 0],
              [4, 4],
            ],
          },
        },
      },
    });
  }
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: { text: `${cell.cohort} ${cell.path} ${cell.state} ${cell.metric}`, anchor: 'start', fontSize: 13 },
    width: 360,
    height: 160,
    config: { font: 'sans-serif', axis: { labelLimit: 0, titleLimit: 0 }, legend: { labelLimit: 0, orient: 'bottom' } },
    layer: layers,
  };
}
