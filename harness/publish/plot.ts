// A plot every report publishes: its SVG file name, caption and Vega-Lite
// spec, and the look every report plot shares (labels never truncated).
import type { PlotSpec } from './plot-adapter.js';

export interface Plot {
  /** File name of the rendered SVG, e.g. differences.svg. */
  file: string;
  /** What the plot shows, one line (alt text and figure caption). */
  caption: string;
  spec: PlotSpec;
}

export const schema = 'https://vega.github.io/schema/vega-lite/v5.json';
/** The look every report plot shares: labels never truncated. */
export const config = {
  font: 'sans-serif',
  axis: { labelLimit: 0, titleLimit: 0, labelFontSize: 11, titleFontSize: 12 },
  legend: { labelLimit: 0, titleLimit: 0, labelFontSize: 11 },
  header: { labelLimit: 0, titleLimit: 0, labelFontSize: 12, labelFontWeight: 'bold' },
  title: { limit: 0, fontSize: 14, subtitleFontSize: 11, anchor: 'start' },
};
