// A CSV file as rows keyed by header name (RFC 4180 quoting), so readers ask
// for columns by name and a report that gains columns still reads. Pure.

export interface CsvTable {
  header: string[];
  /** One object per data row, keyed by header name; missing trailing fields are ''. */
  rows: Record<string, string>[];
}

function records(text: string): string[][] {
  const out: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let any = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') { field += '"'; i++; } else quoted = false;
      } else field += ch;
      continue;
    }
    if (ch === '"') { quoted = true; any = true; } else if (ch === ',') { fields.push(field); field = ''; any = true; } else if (ch === '\r') {
      // ignored before \n
    } else if (ch === '\n') {
      fields.push(field);
      if (any || field !== '') out.push(fields);
      fields = []; field = ''; any = false;
    } else { field += ch; any = true; }
  }
  if (any || field !== '') { fields.push(field); out.push(fields); }
  return out;
}

export function parseCsvTable(text: string): CsvTable {
  const recs = records(text.replace(/^\uFEFF/, ''));
  const header = (recs[0] ?? []).map((h) => h.trim());
  const rows = recs.slice(1).map((fields) => Object.fromEntries(header.map((h, i) => [h, fields[i] ?? ''])));
  return { header, rows };
}
