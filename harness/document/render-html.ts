// The document model as the body of a web page (pure): the opening first,
// then a contents list with heading anchors, the sections, and the appendix
// as collapsed <details>. Figures are handed to `figure`, so the page can put
// an interactive view in their place.
import type { Block, Figure, ReportDocument, Section } from './document-model.js';
import { escapeHtml, inlineHtml } from './inline-html.js';
import { headingTitle, sectionIds } from './heading-ids.js';

export type FigureHtml = (f: Figure) => string;

interface Ctx {
  figure: FigureHtml;
  ids: Map<Section, string>;
}

function tableHtml(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [
    '<table>',
    `<thead><tr>${header.map((c) => `<th>${inlineHtml(c)}</th>`).join('')}</tr></thead>`,
    `<tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${inlineHtml(c)}</td>`).join('')}</tr>`).join('\n')}</tbody>`,
    '</table>',
  ].join('\n');
}

function blockHtml(b: Block, depth: number, c: Ctx): string {
  switch (b.kind) {
    case 'paragraph':
      return `<p>${inlineHtml(b.text)}</p>`;
    case 'list':
      return `<ul>${b.items.map((i) => `<li>${inlineHtml(i)}</li>`).join('\n')}</ul>`;
    case 'figure':
      return c.figure(b);
    case 'code':
      return `<pre><code>${escapeHtml(b.text)}</code></pre>`;
    case 'table':
      return `<div class="table">${b.caption ? `<p class="caption">${inlineHtml(b.caption)}</p>` : ''}${tableHtml(b.header, b.rows)}</div>`;
    case 'section':
      return sectionHtml(b, depth + 1, b.title, c);
  }
}

function heading(s: Section, depth: number, title: string, c: Ctx): string {
  const h = Math.min(depth, 6);
  const id = c.ids.get(s)!;
  return `<h${h} id="${id}"><a class="anchor" href="#${id}">${inlineHtml(title)}</a></h${h}>`;
}

function sectionHtml(s: Section, depth: number, title: string, c: Ctx): string {
  return ['<section>', heading(s, depth, title, c), ...s.blocks.map((b) => blockHtml(b, depth, c)), '</section>'].join('\n');
}

export function renderHtmlBody(doc: ReportDocument, figure: FigureHtml): string {
  const c: Ctx = { figure, ids: sectionIds(doc) };
  const out = [`<h1>${inlineHtml(doc.title)}</h1>`, ...doc.opening.map((b) => blockHtml(b, 1, c))];
  const top = [...doc.sections, ...doc.appendix];
  if (top.length > 1)
    out.push(
      '<nav class="contents" id="contents"><p><strong>Contents</strong></p><ul>' +
        top.map((s) => `<li><a href="#${c.ids.get(s)}">${inlineHtml(headingTitle(doc, s))}</a></li>`).join('') +
        '</ul></nav>',
    );
  for (const s of doc.sections) out.push(sectionHtml(s, 2, s.title, c));
  for (const s of doc.appendix) {
    const id = c.ids.get(s)!;
    out.push(`<details id="${id}"><summary>${inlineHtml(headingTitle(doc, s))}</summary>`, ...s.blocks.map((b) => blockHtml(b, 2, c)), '</details>');
  }
  return out.join('\n');
}
