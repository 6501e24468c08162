// Pure: the one CSV writer (RFC 4180: a field is quoted when it holds a comma,
// quote or line break, its quotes doubled; null is the empty field). Its
// reader is db/csv-records.ts.

export type CsvValue = string | number | boolean | null;

/** A CSV field: quoted when it holds a comma, quote or line break; null is empty. */
export function csvField(value: CsvValue | undefined): string {
  if (value === null || value === undefined) return '';
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A header line and one line per row, each ending in a line break. */
export function csv(header: readonly string[], rows: readonly (readonly (CsvValue | undefined)[])[]): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\n') + '\n';
}
