// index.html: the report as one self-contained web page (pure). The text and
// tables of report.md, each figure replaced by an interactive Vega-Lite view
// with its data inline, and the vega, vega-lite and vega-embed libraries
// inlined from their npm packages: the page loads nothing from any network.
import { escapeHtml, markdownToHtml } from './markdown-html.js';
import type { Plot } from './plot-specs.js';

/** Script texts of the libraries (the UMD builds of the npm packages). */
export interface PageLibraries {
  vega: string;
  vegaLite: string;
  vegaEmbed: string;
}

/** Makes a script text safe inside <script>…</script>. */
function inlineScript(js: string): string {
  return js.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

const style = `
body { font-family: sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; line-height: 1.45; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
code { background: #f5f5f5; padding: 0 0.2em; }
pre { background: #f5f5f5; padding: 0.6em; overflow-x: auto; }
figure { margin: 1.5em 0; }
figcaption { font-size: 0.85em; color: #555; }
.view { overflow-x: auto; }
#vg-tooltip-element { font-family: sans-serif; }
`;

export function renderIndexHtml(reportMd: string, plots: readonly Plot[], libs: PageLibraries): string {
  const specs: Record<string, unknown>[] = [];
  const body = markdownToHtml(reportMd, (alt, src) => {
    const plot = plots.find((p) => p.file === src);
    if (!plot) return `<p><img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}"></p>`;
    specs.push(plot.spec);
    const n = specs.length - 1;
    return (
      `<figure><div class="view" id="view-${n}" data-file="${escapeHtml(plot.file)}"></div>` +
      `<figcaption>${escapeHtml(plot.caption)} (<a href="${escapeHtml(plot.file)}">static SVG</a>)</figcaption></figure>`
    );
  });
  const title = /^# (.*)$/m.exec(reportMd)?.[1] ?? 'Report';
  const data = JSON.stringify(specs).replace(/</g, '\\u003c');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${style}</style>`,
    `<script>${inlineScript(libs.vega)}</script>`,
    `<script>${inlineScript(libs.vegaLite)}</script>`,
    `<script>${inlineScript(libs.vegaEmbed)}</script>`,
    '</head>',
    '<body>',
    body,
    `<script>
(function () {
  var specs = ${data};
  var done = 0, failed = [];
  specs.forEach(function (spec, i) {
    vegaEmbed('#view-' + i, spec, { actions: false, renderer: 'svg' })
      .catch(function (e) { failed.push(i + ': ' + e); console.error('view ' + i + ': ' + e); })
      .then(function () { done++; if (done === specs.length) document.body.setAttribute('data-views-done', String(specs.length - failed.length)); });
  });
  if (specs.length === 0) document.body.setAttribute('data-views-done', '0');
})();
</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
