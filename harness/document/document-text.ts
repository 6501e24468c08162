// What a reader reads in a document (pure): its plain text, the word count of
// the main text (title, opening and sections: the appendix excluded; table
// cells and captions included), its sentences, and the long sentences it says
// more than once.
import type { Block, ReportDocument } from './document-model.js';
import { inlinePlain } from './inline-html.js';

/** Plain text of a block: one string per paragraph, list item, heading, caption and table row. */
export function blockTexts(b: Block): string[] {
  switch (b.kind) {
    case 'paragraph':
      return [inlinePlain(b.text)];
    case 'list':
      return b.items.map(inlinePlain);
    case 'figure':
      return [inlinePlain(b.caption)];
    case 'code':
      return [];
    case 'table':
      return [...(b.caption ? [inlinePlain(b.caption)] : []), b.header.join(' '), ...b.rows.map((r) => r.map(inlinePlain).join(' '))];
    case 'section':
      return [inlinePlain(b.title), ...b.blocks.flatMap(blockTexts)];
  }
}

export function mainTexts(doc: ReportDocument): string[] {
  return [inlinePlain(doc.title), ...doc.opening.flatMap(blockTexts), ...doc.sections.flatMap(blockTexts)];
}

export const wordCount = (texts: readonly string[]): number => texts.reduce((n, t) => n + (t.match(/\S+/g)?.length ?? 0), 0);

/** Words of the main text, the appendix excluded. */
export const mainWordCount = (doc: ReportDocument): number => wordCount(mainTexts(doc));

/** The first `n` words of the main text, in reading order. */
export function firstWords(doc: ReportDocument, n: number): string {
  return mainTexts(doc).join(' ').split(/\s+/).filter(Boolean).slice(0, n).join(' ');
}

/** Sentences of the prose (paragraphs and list items, everywhere): split after . ! ? before a capital or a digit. */
export function proseSentences(doc: ReportDocument): string[] {
  const prose = (b: Block): string[] =>
    b.kind === 'paragraph' ? [inlinePlain(b.text)] : b.kind === 'list' ? b.items.map(inlinePlain) : b.kind === 'section' ? b.blocks.flatMap(prose) : [];
  return [...doc.opening, ...doc.sections, ...doc.appendix]
    .flatMap(prose)
    .flatMap((p) => p.split(/(?<=[.!?])\s+(?=[A-Z0-9*"“(])/))
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Sentences longer than `maxWords` words that appear more than once. */
export function repeatedSentences(doc: ReportDocument, maxWords = 12): string[] {
  const counts = new Map<string, number>();
  for (const s of proseSentences(doc)) if (wordCount([s]) > maxWords) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts.entries()].filter(([, n]) => n > 1).map(([s]) => s);
}
