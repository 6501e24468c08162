// The subset of Markdown that report.md uses, as HTML (pure): headings,
// paragraphs, pipe tables, '-' lists, fenced code, figures, and inline code,
// bold and links. A figure line is handed to `figure` so the page can put an
// interactive view in its place.

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Inline Markdown: `code`, **bold**, [text](href); everything else escaped. */
export function inlineHtml(text: string): string {
  const parts = text.split(/(`[^`]*`)/g);
  return parts
    .map((part) => {
      if (part.startsWith('`') && part.endsWith('`') && part.length >= 2) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      return escapeHtml(part)
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, t: string, href: string) => `<a href="${href}">${t}</a>`);
    })
    .join('');
}

/** Cells of a pipe-table line; '\|' is a literal bar. */
export function tableCells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  const cells: string[] = [];
  let cur = '';
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === '\\' && inner[i + 1] === '|') {
      cur += '|';
      i++;
    } else if (inner[i] === '|') {
      cells.push(cur.trim());
      cur = '';
    } else cur += inner[i];
  }
  cells.push(cur.trim());
  return cells;
}

const figureLine = /^!\[([^\]]*)\]\(([^)\s]+)\)$/;

export function markdownToHtml(md: string, figure: (alt: string, src: string) => string): string {
  const lines = md.split('\n');
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
      continue;
    }
    const h = /^(#{1,6}) (.*)$/.exec(line);
    if (h) {
      out.push(`<h${h[1]!.length}>${inlineHtml(h[2]!)}</h${h[1]!.length}>`);
      i++;
      continue;
    }
    if (line.startsWith('```')) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.startsWith('```'); i++) body.push(lines[i]!);
      i++;
      out.push(`<pre><code>${escapeHtml(body.join('\n'))}</code></pre>`);
      continue;
    }
    const f = figureLine.exec(line.trim());
    if (f) {
      out.push(figure(f[1]!, f[2]!));
      i++;
      continue;
    }
    if (line.startsWith('|')) {
      const rows: string[][] = [];
      for (; i < lines.length && lines[i]!.startsWith('|'); i++) rows.push(tableCells(lines[i]!));
      const [head, , ...body] = rows;
      out.push(
        '<table>',
        `<thead><tr>${head!.map((c) => `<th>${inlineHtml(c)}</th>`).join('')}</tr></thead>`,
        `<tbody>${body.map((r) => `<tr>${r.map((c) => `<td>${inlineHtml(c)}</td>`).join('')}</tr>`).join('\n')}</tbody>`,
        '</table>',
      );
      continue;
    }
    if (line.startsWith('- ')) {
      const items: string[] = [];
      for (; i < lines.length && (lines[i]!.startsWith('- ') || (lines[i]!.startsWith('  ') && items.length)); i++) {
        if (lines[i]!.startsWith('- ')) items.push(lines[i]!.slice(2));
        else items[items.length - 1] += '\n' + lines[i]!.trim();
      }
      out.push(`<ul>${items.map((t) => `<li>${inlineHtml(t)}</li>`).join('\n')}</ul>`);
      continue;
    }
    const para: string[] = [];
    for (; i < lines.length && lines[i]!.trim() !== '' && !/^(#{1,6} |```|\||- )/.test(lines[i]!) && !figureLine.test(lines[i]!.trim()); i++)
      para.push(lines[i]!);
    out.push(`<p>${inlineHtml(para.join('\n'))}</p>`);
  }
  return out.join('\n');
}
