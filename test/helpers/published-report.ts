// Reading a published report.md as a reader does (for the tests that hold
// the committed reports to their budgets): the main text is everything
// before the first "## Appendix" heading; words are whitespace-separated
// tokens with Markdown marks removed; sentences are split after . ! ? before
// a capital or a digit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../harness/process/project-root.js';
import { parseCsvTable } from '../../harness/compare/csv-table.js';

export function publishedFile(experiment: string, name: string): string {
  return readFileSync(join(projectRoot(), 'reports', experiment, name), 'utf8');
}

export function publishedCsv(experiment: string, name: string): Record<string, string>[] {
  return parseCsvTable(publishedFile(experiment, name)).rows;
}

const plain = (s: string): string =>
  s
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/\[([^\]]+)\]\([^)\s]+\)/g, '$1');

/** The Markdown before the appendix. */
export function mainMarkdown(md: string): string {
  const i = md.search(/^## Appendix/m);
  return i < 0 ? md : md.slice(0, i);
}

export function markdownWords(md: string): number {
  return md
    .split('\n')
    .filter((l) => !/^\|(-+\|)+$/.test(l.trim()) && !l.startsWith('```'))
    .map((l) => plain(l).replace(/^#+ /, '').replace(/\|/g, ' '))
    .join(' ')
    .split(/\s+/)
    .filter((w) => w !== '' && w !== '-').length;
}

/** The first table's rows as arrays of cells (header first). */
export function firstTable(md: string): string[][] {
  const lines = md.split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (let i = start; i >= 0 && i < lines.length && lines[i]!.startsWith('|'); i++) {
    if (/^\|(-+\|)+$/.test(lines[i]!.trim())) continue;
    rows.push(
      lines[i]!.trim()
        .replace(/^\||\|$/g, '')
        .split(/(?<!\\)\|/)
        .map((c) => c.trim().replace(/\\\|/g, '|')),
    );
  }
  return rows;
}

/** The words before the first table plus the table itself, as text: what the first screen shows. */
export function wordsBefore(md: string, n: number): string {
  return plain(md).split(/\s+/).filter(Boolean).slice(0, n).join(' ');
}

/** Prose sentences longer than maxWords words that appear twice or more (tables, headings and code excluded). */
export function repeatedMarkdownSentences(md: string, maxWords = 12): string[] {
  const prose = md
    .split('\n\n')
    .filter((p) => !p.startsWith('|') && !p.startsWith('#') && !p.startsWith('```') && !p.startsWith('!['))
    .flatMap((p) => p.split('\n').map((l) => plain(l.replace(/^- /, ''))))
    .flatMap((p) => p.split(/(?<=[.!?])\s+(?=[A-Z0-9*"“(])/))
    .map((s) => s.trim())
    .filter((s) => s.split(/\s+/).length > maxWords);
  const counts = new Map<string, number>();
  for (const s of prose) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].filter(([, n]) => n > 1).map(([s]) => s);
}
