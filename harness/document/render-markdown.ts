// The document model as Markdown (pure): the opening, the sections, then the
// appendix under "Appendix: …" headings. No contents line: it cost a long
// report some 75 words of its main-text budget, and a Markdown viewer lists
// the headings itself (GitHub's outline); index.html keeps its contents box.
import type { Block, ReportDocument, Section } from './document-model.js';
import { headingTitle } from './heading-ids.js';

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
  const L: string[] = [`# ${doc.title}`, ''];
  L.push(...doc.opening.flatMap((b) => blockLines(b, 1)));
  for (const s of [...doc.sections, ...doc.appendix]) L.push(...sectionLines(s, 2, headingTitle(doc, s)));
  return (
    L.join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}
