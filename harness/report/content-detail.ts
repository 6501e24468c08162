// The distinct content-byte counts of a cell with how many launches received
// each (pure): a cell that varies is shown value by value, not as a range.
import type { LaunchMeasures, SampleRow } from '../db/sample-row.js';
import { grouped } from '../publish/format-number.js';

export function distinctContentCounts(
  launches: readonly SampleRow[],
  cohort: string,
  path: string,
  state: string,
  column: keyof LaunchMeasures = 'content_bytes',
): { bytes: number; launches: number }[] {
  const counts = new Map<number, number>();
  for (const r of launches) {
    if (r['phase'] !== 'formal' || r['ok'] !== true || r['cohort'] !== cohort || r['path'] !== path || r['state'] !== state) continue;
    const v = r[column];
    if (typeof v === 'number') counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return [...counts].map(([bytes, n]) => ({ bytes, launches: n })).sort((x, y) => y.launches - x.launches || x.bytes - y.bytes);
}

/** "36,886,444 (13 launches), 36,951,980 (7 launches)". */
export function distinctContentText(launches: readonly SampleRow[], cohort: string, path: string, state: string): string {
  return distinctContentCounts(launches, cohort, path, state)
    .map((d) => `${grouped(d.bytes)} (${d.launches} launch${d.launches === 1 ? '' : 'es'})`)
    .join(', ');
}
