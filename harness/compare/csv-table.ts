// A CSV file as rows keyed by header name (RFC 4180 quoting), so readers ask
// for columns by name and a report that gains columns still reads. Pure.
import { csvRecords } from '../db/csv-records.js';

export interface CsvTable {
  header: string[];
  /** One object per data row, keyed by header name; missing trailing fields are ''. */
  rows: Record<string, string>[];
}

export function parseCsvTable(text: string): CsvTable {
  const recs = csvRecords(text.replace(/^\uFEFF/, '')).map((r) => r.fields);
  const header = (recs[0] ?? []).map((h) => h.trim());
  const rows = recs.slice(1).map((fields) => Object.fromEntries(header.map((h, i) => [h, fields[i] ?? ''])));
  return { header, rows };
}
