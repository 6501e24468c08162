// The document model every report is built from (pure data). A report is a
// title, an opening (the question, the scope, the summary table and a few
// sentences: what a reader sees first), sections, and an appendix of long
// detail. Markdown and HTML are two renderings of the same model, so tests
// assert on the model and never re-parse what was rendered.
//
// Inline text is the small Markdown subset both renderers understand:
// `code`, **bold** and [text](href).

export interface Paragraph {
  kind: 'paragraph';
  text: string;
}

export interface Table {
  kind: 'table';
  header: readonly string[];
  rows: readonly (readonly string[])[];
  /** A short line above the table on the page, and in the Markdown. */
  caption?: string;
}

export interface List {
  kind: 'list';
  items: readonly string[];
}

export interface Figure {
  kind: 'figure';
  /** The plot's file beside the report (an SVG); the page shows its interactive view. */
  file: string;
  caption: string;
}

export interface Code {
  kind: 'code';
  text: string;
}

export interface Section {
  kind: 'section';
  title: string;
  blocks: readonly Block[];
}

export type Block = Paragraph | Table | List | Figure | Code | Section;

export interface ReportDocument {
  title: string;
  /** The first screen: the question, the scope, the summary table, the interpretation. */
  opening: readonly Block[];
  sections: readonly Section[];
  /** Long tables and lists: collapsed on the page, at the end of the Markdown. */
  appendix: readonly Section[];
}

export const paragraph = (text: string): Paragraph => ({ kind: 'paragraph', text });
export const list = (items: readonly string[]): List => ({ kind: 'list', items });
export const figure = (file: string, caption: string): Figure => ({ kind: 'figure', file, caption });
export const code = (text: string): Code => ({ kind: 'code', text });
export const table = (header: readonly string[], rows: readonly (readonly string[])[], caption?: string): Table =>
  caption === undefined ? { kind: 'table', header, rows } : { kind: 'table', header, rows, caption };

/** A section, or nothing when it has nothing to say (no block): callers spread the result. */
export function section(title: string, blocks: readonly (Block | null | undefined | false)[]): Section[] {
  const kept = blocks.filter((b): b is Block => !!b && !(b.kind === 'section' && b.blocks.length === 0));
  return kept.length ? [{ kind: 'section', title, blocks: kept }] : [];
}

/** Sentences joined into one paragraph, or null when there is none. */
export function sentences(parts: readonly (string | null | undefined | false)[]): Paragraph | null {
  const kept = parts.filter((s): s is string => typeof s === 'string' && s.trim() !== '');
  return kept.length ? paragraph(kept.join(' ')) : null;
}
