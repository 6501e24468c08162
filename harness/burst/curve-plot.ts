// Pure: the latency–concurrency plot: per-launch Ready P50 against N, one line
// per path, the between-session interval at every point, both axes log.
import { config, schema, type Plot } from '../publish/plot.js';
import type { CurvePoint } from './concurrency-curve.js';

export function curvePlot(points: readonly CurvePoint[], paths: readonly string[]): Plot | null {
  const values = points
    .filter((p) => p.p50Ms !== null)
    .map((p) => ({
      path: p.path,
      level: p.level,
      p50Ms: p.p50Ms!.value,
      lowMs: p.p50Ms!.low,
      highMs: p.p50Ms!.high,
      launches: p.launches,
      failed: p.failures.successes,
    }));
  if (!values.length) return null;
  const levels = [...new Set(values.map((v) => v.level))].sort((a, b) => a - b);
  const x = {
    field: 'level',
    type: 'quantitative',
    title: 'N, launches released together (log scale)',
    scale: { type: 'log', base: 2 },
    axis: { values: levels, format: 'd' },
  };
  const y = { field: 'p50Ms', type: 'quantitative', title: 'P50 of per-launch Ready, ms (log scale)', scale: { type: 'log' } };
  const color = { field: 'path', type: 'nominal', title: 'path', sort: [...paths] };
  const tooltip = [
    { field: 'path', type: 'nominal' },
    { field: 'level', type: 'quantitative', title: 'N' },
    { field: 'p50Ms', type: 'quantitative', title: 'P50 ms', format: '.1f' },
    { field: 'lowMs', type: 'quantitative', title: 'low ms', format: '.1f' },
    { field: 'highMs', type: 'quantitative', title: 'high ms', format: '.1f' },
    { field: 'launches', type: 'quantitative' },
    { field: 'failed', type: 'quantitative' },
  ];
  return {
    file: 'concurrency-curve.svg',
    caption: 'P50 of per-launch Ready against the number of launches released together, per path, with between-session 95% intervals; log axes',
    spec: {
      $schema: schema,
      title: {
        text: 'Start-up under concurrency: per-launch Ready against N',
        subtitle: ['geometric mean over sessions of each session’s P50; bars: between-session 95% t intervals', 'both axes log'],
      },
      config,
      width: 460,
      height: 300,
      data: { values },
      layer: [
        { mark: { type: 'rule' }, encoding: { x, y: { field: 'lowMs', type: 'quantitative', scale: { type: 'log' } }, y2: { field: 'highMs' }, color } },
        { mark: { type: 'line', point: { filled: true, size: 40 } }, encoding: { x, y, color, tooltip } },
      ],
    },
  };
}
