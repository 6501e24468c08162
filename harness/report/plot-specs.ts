// Vega-Lite specs of the report's plots, built from the statistics (pure).
import type { DifferenceResult } from '../analysis/analysis-result.js';
import type { PlotSpec } from './plot-adapter.js';
import type { ReadyValue } from './report-inputs.js';

const font = { font: 'sans-serif', labelFont: 'sans-serif', titleFont: 'sans-serif' };

/** ECDF of Ready for one cohort and state: one step line per path. */
export function ecdfSpec(cohort: string, state: string, values: readonly ReadyValue[], pathOrder: readonly string[]): PlotSpec {
  const points: { path: string; readyMs: number; fraction: number }[] = [];
  for (const path of pathOrder) {
    const sorted = values.filter((v) => v.path === path).map((v) => v.readyMs).sort((a, b) => a - b);
    sorted.forEach((readyMs, i) => points.push({ path, readyMs, fraction: (i + 1) / sorted.length }));
  }
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: `Ready, ${cohort}, ${state} clients: empirical distribution`,
    width: 480,
    height: 260,
    config: { axis: font, legend: font, title: { font: 'sans-serif' } },
    data: { values: points },
    mark: { type: 'line', interpolate: 'step-after' },
    encoding: {
      x: { field: 'readyMs', type: 'quantitative', title: 'Ready (ms)', scale: { zero: false } },
      y: { field: 'fraction', type: 'quantitative', title: 'fraction of launches', scale: { domain: [0, 1] } },
      color: { field: 'path', type: 'nominal', title: 'path', sort: [...pathOrder] },
    },
  };
}

/** Differences of marginal medians with their bootstrap intervals. */
export function differencesSpec(differences: readonly DifferenceResult[]): PlotSpec {
  const rows = differences
    .filter((d) => d.observedMs !== null)
    .map((d) => ({
      label: `${d.cohort} · ${d.state} · ${d.metric} · ${d.a} − ${d.b}`,
      observedMs: d.observedMs,
      lowMs: d.lowMs,
      highMs: d.highMs,
      detected: d.detected ? 'difference detected' : 'no difference detected',
    }));
  const order = rows.map((r) => r.label);
  const y = { field: 'label', type: 'nominal', title: null, sort: order };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: 'Differences of marginal medians (paired-round bootstrap percentile intervals)',
    width: 420,
    config: { axis: font, legend: font, title: { font: 'sans-serif' } },
    data: { values: rows },
    layer: [
      { mark: { type: 'rule', color: '#888' }, data: { values: [{ zero: 0 }] }, encoding: { x: { field: 'zero', type: 'quantitative' } } },
      {
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: {
          y,
          x: { field: 'lowMs', type: 'quantitative', title: 'difference (ms)' },
          x2: { field: 'highMs' },
          color: { field: 'detected', type: 'nominal', title: null, sort: ['difference detected', 'no difference detected'] },
        },
      },
      {
        mark: { type: 'point', filled: true, size: 50 },
        encoding: {
          y,
          x: { field: 'observedMs', type: 'quantitative' },
          color: { field: 'detected', type: 'nominal', title: null, sort: ['difference detected', 'no difference detected'] },
        },
      },
    ],
  };
}
