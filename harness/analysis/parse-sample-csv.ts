// Parses and validates a CSV of sample rows (header = columns of
// schemas/sample.schema.json, any order). Pure: text in, rows out; a bad row
// is a UserError naming file:line and the column.
import { UserError } from '../errors.js';
import { csvRecords as records } from '../db/csv-records.js';
import { sampleColumns, type SampleColumn, type SampleValue } from '../db/sample-columns.js';
import { rowOfCells, type SampleRow } from '../db/sample-row.js';

function cell(raw: string, c: SampleColumn, file: string, line: number): SampleValue {
  const bad = (what: string): never => {
    throw new UserError(`column ${c.name}: ${what}, got ${JSON.stringify(raw)}`, { file, line }, 'fix the row or remove it');
  };
  if (raw === '') {
    if (c.default !== undefined) return c.default;
    if (c.nullable) return null;
    return bad('a value is required');
  }
  switch (c.type) {
    case 'string':
      if (c.enum && !c.enum.includes(raw)) bad(`must be one of ${c.enum.join(', ')}`);
      if (c.pattern && !c.pattern.test(raw)) bad(`must be ${c.patternText ?? `like ${c.pattern.source}`}`);
      return raw;
    case 'boolean':
      if (raw === 'true' || raw === 'TRUE' || raw === '1') return true;
      if (raw === 'false' || raw === 'FALSE' || raw === '0') return false;
      return bad('must be true or false');
    case 'integer': {
      if (!/^-?\d+$/.test(raw.trim())) bad('must be an integer');
      const v = Number(raw);
      if (c.minimum !== undefined && v < c.minimum) bad(`must be >= ${c.minimum}`);
      return v;
    }
    case 'number': {
      const v = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(v)) bad('must be a finite number');
      if (c.minimum !== undefined && v < c.minimum) bad(`must be >= ${c.minimum}`);
      return v;
    }
  }
}

/** `extra`: an experiment's declared measure and sweep columns, known beside the shared ones. */
export function parseSampleCsv(text: string, file: string, extra: readonly SampleColumn[] = []): SampleRow[] {
  const columns = [...sampleColumns, ...extra];
  const recs = records(text.replace(/^\uFEFF/, ''));
  if (recs.length === 0) throw new UserError('the file is empty; expected a header line with the sample columns', { file, line: 1 });
  const header = recs[0]!.fields.map((h) => h.trim());
  const known = new Map(columns.map((c) => [c.name, c]));
  header.forEach((h) => {
    if (!known.has(h))
      throw new UserError(
        `unknown column ${JSON.stringify(h)}`,
        { file, line: recs[0]!.line },
        `columns are those of schemas/sample.schema.json: ${columns.map((c) => c.name).join(', ')}`,
      );
  });
  for (const c of sampleColumns) {
    if (c.required && !header.includes(c.name)) throw new UserError(`missing required column ${c.name}`, { file, line: recs[0]!.line }, 'add it to the header');
  }
  const seen = new Map<string, number>();
  return recs.slice(1).map(({ line, fields }) => {
    if (fields.length !== header.length) {
      throw new UserError(`expected ${header.length} fields, got ${fields.length}`, { file, line }, 'quote fields that contain commas');
    }
    const cells: Record<string, SampleValue> = {};
    for (const c of columns) cells[c.name] = c.default ?? null;
    header.forEach((h, i) => {
      cells[h] = cell(fields[i]!, known.get(h)!, file, line);
    });
    // Every required column is in the header and each cell was checked against its column: the row is typed from here.
    const row = rowOfCells(cells);
    const id = row.launch_id;
    const first = seen.get(id);
    if (first !== undefined)
      throw new UserError(`column launch_id: duplicate ${JSON.stringify(id)} (first on line ${first})`, { file, line }, 'launch ids must be unique');
    seen.set(id, line);
    return row;
  });
}
