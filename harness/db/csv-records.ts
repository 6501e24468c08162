// Pure: the records of a CSV text (RFC 4180 quoting; CRLF or LF), each with
// the 1-based line it starts on, for messages that name file:line. The one CSV
// reader of the project.

/** RFC 4180 records with the 1-based line each starts on. */
export function csvRecords(text: string): { line: number; fields: string[] }[] {
  const out: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let any = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
      continue;
    }
    if (ch === '"') {
      quoted = true;
      any = true;
    } else if (ch === ',') {
      fields.push(field);
      field = '';
      any = true;
    } else if (ch === '\r') {
      // ignored before \n
    } else if (ch === '\n') {
      fields.push(field);
      if (any || field !== '') out.push({ line: start, fields });
      fields = [];
      field = '';
      any = false;
      line++;
      start = line;
    } else {
      field += ch;
      any = true;
    }
  }
  if (any || field !== '') {
    fields.push(field);
    out.push({ line: start, fields });
  }
  return out;
}
