// The document model as Markdown (pure): the opening, the sections, then the
// appendix under "Appendix: …" headings. No contents line: it cost a long
// report some 75 words of its main-text budget, and a Markdown viewer lists
// the headings itself (GitHub's outline); index.html keeps its contents box.
// A section named in quotes in the prose ("Order and carryover", the appendix
// "Every cell") is a link to its heading instead, at no cost in words.
import type { Block, ReportDocument, Section } from './document-model.js';
import { headingTitle, sectionIds } from './heading-ids.js';

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Section titles (an appendix section's with and without "Appendix: ") to their heading ids. */
type Targets = ReadonlyMap<string, string>;

function referenceTargets(doc: ReportDocument): Targets {
  const out = new Map<string, string>();
  for (const [s, id] of sectionIds(doc)) {
    const top = doc.appendix.includes(s) ? headingTitle(doc, s) : s.title;
    if (!out.has(top)) out.set(top, id);
  }
  // "the appendix "Every cell"" names an appendix section by its own title, unless a main section has it
  for (const s of doc.appendix) if (!out.has(s.title)) out.set(s.title, out.get(headingTitle(doc, s))!);
  return out;
}

/** Every "Title" of a section in `text` as a link to its heading; code spans are left as they are. */
function linkReferences(text: string, targets: Targets): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) =>
      i % 2
        ? part
        : part.replace(/"([^"\n[\]]+)"/g, (whole, title: string) => {
            const id = targets.get(title);
            return id ? `[${whole}](#${id})` : whole;
          }),
    )
    .join('');
}

function blockLines(b: Block, depth: number, targets: Targets): string[] {
  switch (b.kind) {
    case 'paragraph':
      return [linkReferences(b.text, targets), ''];
    case 'list':
      return [...b.items.map((i) => `- ${linkReferences(i, targets).replace(/\n/g, '\n  ')}`), ''];
    case 'figure':
      return [`![${b.caption}](${b.file})`, ''];
    case 'code':
      return ['```', b.text.replace(/\n$/, ''), '```', ''];
    case 'table':
      return [
        ...(b.caption ? [linkReferences(b.caption, targets), ''] : []),
        `| ${b.header.map(cell).join(' | ')} |`,
        `|${b.header.map(() => '---').join('|')}|`,
        ...b.rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
        '',
      ];
    case 'section':
      return sectionLines(b, depth + 1, b.title, targets);
  }
}

function sectionLines(s: Section, depth: number, title: string, targets: Targets): string[] {
  return [`${'#'.repeat(Math.min(depth, 6))} ${title}`, '', ...s.blocks.flatMap((b) => blockLines(b, depth, targets))];
}

export function renderMarkdown(doc: ReportDocument): string {
  const L: string[] = [`# ${doc.title}`, ''];
  const targets = referenceTargets(doc);
  L.push(...doc.opening.flatMap((b) => blockLines(b, 1, targets)));
  for (const s of [...doc.sections, ...doc.appendix]) L.push(...sectionLines(s, 2, headingTitle(doc, s), targets));
  return (
    L.join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}
