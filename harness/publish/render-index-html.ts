// index.html: a report document as one self-contained web page (pure). The
// same document as report.md: the opening first, a contents list, the
// sections, the appendix collapsed; each figure an interactive Vega-Lite view
// with its data inline, and the vega, vega-lite and vega-embed libraries
// inlined from their npm packages: the page loads nothing from any network.
import { escapeHtml } from '../document/inline-html.js';
import type { ReportDocument } from '../document/document-model.js';
import { renderHtmlBody } from '../document/render-html.js';
import type { Plot } from './plot.js';

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
body { font-family: sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; line-height: 1.45; color: #222; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
.table { overflow-x: auto; max-width: 100%; }
.caption { margin: 1em 0 0.2em; }
nav.contents { background: #f7f7f7; border: 1px solid #ddd; padding: 0.2em 1em; margin: 1em 0; }
nav.contents ul { columns: 2; margin: 0.3em 0; }
a.anchor { color: inherit; text-decoration: none; }
a.anchor:hover::after { content: ' #'; color: #888; }
details { border: 1px solid #ddd; padding: 0.3em 0.8em; margin: 0.6em 0; }
details > summary { cursor: pointer; font-weight: bold; }
img, svg { max-width: 100%; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: left; vertical-align: top; overflow-wrap: normal; }
th { background: #f2f2f2; }
code { background: #f5f5f5; padding: 0 0.2em; }
pre { background: #f5f5f5; padding: 0.6em; overflow-x: auto; }
figure { margin: 1.5em 0; }
figcaption { font-size: 0.85em; color: #555; }
.view { overflow-x: auto; max-width: 100%; }
#vg-tooltip-element { font-family: sans-serif; }
.filters { position: sticky; top: 0; background: #fff; padding: 0.4em 0; border-bottom: 1px solid #eee; z-index: 2; font-size: 0.9em; }
`;

/** The distinct values of a field over every chart's data, in first-seen order. */
function fieldValues(specs: readonly Record<string, unknown>[], field: string): string[] {
  const seen = new Set<string>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    const data = n['data'] as { values?: Record<string, unknown>[] } | undefined;
    if (data && Array.isArray(data.values)) for (const v of data.values) if (v[field] !== undefined && v[field] !== null) seen.add(String(v[field]));
    for (const [k, c] of Object.entries(n)) if (k !== 'data') walk(c);
  };
  for (const s of specs) walk(s);
  return [...seen];
}

/** A cohort and a state selector for the charts, when the charts have more than one of either. */
function filterBar(specs: readonly Record<string, unknown>[]): string {
  const select = (field: string, label: string): string => {
    const values = fieldValues(specs, field);
    if (values.length < 2) return '';
    return (
      `<label>${label} <select data-field="${field}" id="filter-${field}"><option value="">all</option>` +
      values.map((v) => `<option value="${escapeHtml(v)}">${escapeHtml(v)}</option>`).join('') +
      '</select></label> '
    );
  };
  const bar = select('cohort', 'Charts: cohort') + select('state', 'state');
  return bar ? `<div class="filters" id="filters">${bar}</div>` : '';
}

export function renderIndexHtml(doc: ReportDocument, plots: readonly Plot[], libs: PageLibraries): string {
  const specs: Record<string, unknown>[] = [];
  const body = renderHtmlBody(doc, (fig) => {
    const plot = plots.find((p) => p.file === fig.file);
    if (!plot)
      return `<figure><img src="${escapeHtml(fig.file)}" alt="${escapeHtml(fig.caption)}"><figcaption>${escapeHtml(fig.caption)}</figcaption></figure>`;
    specs.push(plot.spec);
    const n = specs.length - 1;
    return (
      `<figure><div class="view" id="view-${n}" data-file="${escapeHtml(plot.file)}"></div>` +
      `<figcaption>${escapeHtml(plot.caption)} (<a href="${escapeHtml(plot.file)}">static SVG</a>)</figcaption></figure>`
    );
  });
  const title = doc.title;
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
    filterBar(specs),
    body,
    `<script>
(function () {
  var specs = ${data};
  var done = 0, failed = [];
  // The selector keeps, in every chart whose data has the field, only the chosen cohort and state.
  function filtered(spec, want) {
    var copy = JSON.parse(JSON.stringify(spec));
    function keep(values) {
      return values.filter(function (v) {
        return Object.keys(want).every(function (k) { return !want[k] || !(k in v) || String(v[k]) === want[k]; });
      });
    }
    (function walk(node) {
      if (!node || typeof node !== 'object') return;
      if (node.data && Array.isArray(node.data.values)) node.data.values = keep(node.data.values);
      Object.keys(node).forEach(function (k) { if (k !== 'data') walk(node[k]); });
    })(copy);
    return copy;
  }
  function draw(want, first) {
    specs.forEach(function (spec, i) {
      vegaEmbed('#view-' + i, filtered(spec, want), { actions: false, renderer: 'svg' })
        .catch(function (e) { failed.push(i + ': ' + e); console.error('view ' + i + ': ' + e); })
        .then(function () { if (!first) return; done++; if (done === specs.length) document.body.setAttribute('data-views-done', String(specs.length - failed.length)); });
    });
  }
  function current() {
    var want = {};
    document.querySelectorAll('select[data-field]').forEach(function (s) { want[s.getAttribute('data-field')] = s.value; });
    return want;
  }
  document.querySelectorAll('select[data-field]').forEach(function (s) {
    s.addEventListener('change', function () {
      document.body.setAttribute('data-filter', JSON.stringify(current()));
      draw(current(), false);
    });
  });
  draw(current(), true);
  if (specs.length === 0) document.body.setAttribute('data-views-done', '0');
})();
</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
