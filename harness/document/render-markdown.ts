// The document model as Markdown (pure): the opening, a contents list, the
// sections, then the appendix under "Appendix: …" headings.
import type { Block, ReportDocument, Section } from './document-model.js';
import { headingTitle, sectionIds } from './heading-ids.js';

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function blockLines(b: Block, depth: number): string[] {
  switch (b.kind) {
    case 'paragraph':
      return [b.text, ''];
    case 'list':
      return [...b.items.map((i) => `- ${i.replace(/\n/g, '\n  ')}`), ''];
    case 'figure':
      return [`![${b.caption}](${b.file})`, ''];
    case 'code':
      return ['```', b.text.replace(/\n$/, ''), '```', ''];
    case 'table':
      return [
        ...(b.caption ? [b.caption, ''] : []),
        `| ${b.header.map(cell).join(' | ')} |`,
        `|${b.header.map(() => '---').join('|')}|`,
        ...b.rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
        '',
      ];
    case 'section':
      return sectionLines(b, depth + 1, b.title);
  }
}

function sectionLines(s: Section, depth: number, title: string): string[] {
  return [`${'#'.repeat(Math.min(depth, 6))} ${title}`, '', ...s.blocks.flatMap((b) => blockLines(b, depth))];
}

export function renderMarkdown(doc: ReportDocument): string {
  const ids = sectionIds(doc);
  const L: string[] = [`# ${doc.title}`, ''];
  L.push(...doc.opening.flatMap((b) => blockLines(b, 1)));
  const top = [...doc.sections, ...doc.appendix];
  // the appendix's entries follow one "Appendix:" label, not one each (their headings keep it)
  const entry = (s: Section, title = headingTitle(doc, s)): string => `[${title}](#${ids.get(s)})`;
  const main = doc.sections.map((s) => entry(s));
  const appendix = doc.appendix.map((s) => entry(s, headingTitle(doc, s).replace(/^Appendix: /, '')));
  if (top.length > 1) L.push('Contents: ' + [...main, ...(appendix.length ? [`Appendix: ${appendix.join(' · ')}`] : [])].join(' · '), '');
  for (const s of top) L.push(...sectionLines(s, 2, headingTitle(doc, s)));
  return (
    L.join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}
