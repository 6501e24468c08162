// The one adapter around the plotting libraries (vega@5 + vega-lite@5):
// a Vega-Lite spec in, SVG text out, rendered in Node with the headless 'none'
// renderer (no browser, no canvas). Swapping the library is a change here.
import type * as VegaLite from 'vega-lite';

export type PlotSpec = Record<string, unknown>;

export async function renderSvg(spec: PlotSpec): Promise<string> {
  // Loaded on first use: only the report stage pays for them.
  const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
  const compiled = vegaLite.compile(spec as unknown as VegaLite.TopLevelSpec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    return svg.endsWith('\n') ? svg : svg + '\n';
  } finally {
    view.finalize();
  }
}
