// Heading anchors (pure): every section of a document gets an id from its
// title, unique in document order (repeats get -2, -3, …), so the Markdown's
// contents list and the page's anchors agree.
import type { Block, ReportDocument, Section } from './document-model.js';

export function slug(title: string): string {
  const s = title
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
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
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    ids.set(b, n === 1 ? base : `${base}-${n}`);
    for (const c of b.blocks) visit(c, c.kind === 'section' ? c.title : '');
  };
  for (const b of doc.opening) visit(b, b.kind === 'section' ? b.title : '');
  for (const s of [...doc.sections, ...doc.appendix]) visit(s, headingTitle(doc, s));
  return ids;
}
