// Heading anchors (pure): every section of a document gets an id from its
// title, unique in document order, for the page's contents box. The ids are
// GitHub's own (github-slugger's rule: the
// visible text lower-cased, every character that is not a letter, mark,
// digit, connector, hyphen or space dropped, each space a hyphen; repeats get
// -1, -2, …), so a link to a section of the page also works on the
// Markdown where GitHub renders it and assigns the heading ids itself.
import type { Block, ReportDocument, Section } from './document-model.js';
import { inlinePlain } from './inline-html.js';

export function slug(title: string): string {
  const s = inlinePlain(title)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
  return s || 'section';
}

/** The heading a section shows: appendix sections are prefixed. */
export function headingTitle(doc: ReportDocument, s: Section): string {
  return doc.appendix.includes(s) ? `Appendix: ${s.title}` : s.title;
}

export function sectionIds(doc: ReportDocument): Map<Section, string> {
  const seen = new Map<string, number>();
  const ids = new Map<Section, string>();
  const visit = (b: Block, title: string): void => {
    if (b.kind !== 'section') return;
    const base = slug(title);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.set(b, n === 0 ? base : `${base}-${n}`);
    for (const c of b.blocks) visit(c, c.kind === 'section' ? c.title : '');
  };
  for (const b of doc.opening) visit(b, b.kind === 'section' ? b.title : '');
  for (const s of [...doc.sections, ...doc.appendix]) visit(s, headingTitle(doc, s));
  return ids;
}
