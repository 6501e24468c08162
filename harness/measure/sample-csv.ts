// Pure: sample rows as the CSV an `import-samples` stage reads (header = the
// columns of schemas/sample.schema.json, RFC 4180 quoting, empty = null).
import { sampleColumns, type SampleRow } from '../db/sample-columns.js';

export function sampleCsv(rows: readonly SampleRow[]): string {
  const names = sampleColumns.map((c) => c.name);
  const cell = (v: SampleRow[string] | undefined): string => {
    if (v === null || v === undefined) return '';
    const s = String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [names.join(','), ...rows.map((r) => names.map((n) => cell(r[n])).join(','))].join('\n') + '\n';
}
