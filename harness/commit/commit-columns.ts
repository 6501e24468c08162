// The commit-diff experiment's declared columns of the one sample table,
// beside the shared ones (db/sample-columns.ts): its sweep dimensions and its
// own measures. A commit is a row with cohort = the matrix cell, path = the
// diff method (naive, native), state = initial or incremental, completion_ms =
// the measured `docker commit`. A compression launch is a row with cohort =
// `compression`, path = the tool, state = none.
import { col, type ColumnValues, type SampleColumn } from '../db/sample-columns.js';
import type { SampleRow } from '../db/sample-row.js';
import { COMMIT_DIMENSIONS } from './commit-cell.js';
import type { CommitRowData, CompressionRowData } from './commit-analysis.js';

export const COMPRESSION_UNIT = 'compression';

/**
 * The engine's measures of a commit, in column order: each one's field
 * (CommitObservation, CommitRowData), its column, and its kind (a time in ms,
 * or a count of bytes or calls, whole and never negative).
 */
const ENGINE_MEASURES = [
  ['engineCpuMs', 'engine_cpu_ms', 'ms'],
  ['engineUserCpuMs', 'engine_user_cpu_ms', 'ms'],
  ['engineSysCpuMs', 'engine_sys_cpu_ms', 'ms'],
  ['engineSyscalls', 'engine_syscalls', 'count'],
  ['diskReadBytes', 'disk_read_bytes', 'count'],
  ['readCharsBytes', 'read_chars_bytes', 'count'],
  ['layerBytes', 'layer_bytes', 'count'],
] as const;

export const commitColumns = [
  ...COMMIT_DIMENSIONS.map((d) => col(d, 'number', 'DOUBLE')),
  ...ENGINE_MEASURES.map(([, column, kind]) => (kind === 'ms' ? col(column, 'number', 'DOUBLE') : col(column, 'integer', 'BIGINT', { minimum: 0 }))),
  col('compressed_bytes', 'integer', 'BIGINT', { minimum: 0 }),
  col('note', 'string', 'VARCHAR'),
] as const satisfies readonly SampleColumn[];

/** The declared columns by name, read off commitColumns: a commit fills the dimensions and engine measures, a compression launch the sizes and note. */
export type CommitColumns = ColumnValues<(typeof commitColumns)[number]>;

export type CommitRow = SampleRow<CommitColumns>;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

type EngineMeasureField = (typeof ENGINE_MEASURES)[number][0];
type EngineMeasureColumn = (typeof ENGINE_MEASURES)[number][1];

/** The engine measures of a commit as its journal columns; null where it has none (no commit, or a failed one). */
export function engineMeasureColumns(o: Partial<Record<EngineMeasureField, number | null>> | null): Record<EngineMeasureColumn, number | null> {
  return Object.fromEntries(ENGINE_MEASURES.map(([field, column]) => [column, o?.[field] ?? null])) as Record<EngineMeasureColumn, number | null>;
}

/** The engine measures of a journaled commit, read back from its columns. */
function engineMeasuresOf(r: CommitRow): Record<EngineMeasureField, number | null> {
  return Object.fromEntries(ENGINE_MEASURES.map(([field, column]) => [field, num(r[column])])) as Record<EngineMeasureField, number | null>;
}

/** The journaled rows as the analysis reads them: commits, and compression launches. */
export function commitRowsOf(rows: readonly CommitRow[]): { rows: CommitRowData[]; compression: CompressionRowData[] } {
  const commits = rows.filter((r) => r['cohort'] !== COMPRESSION_UNIT);
  return {
    rows: commits.map((r) => ({
      cell: String(r['cohort']),
      dims: Object.fromEntries(COMMIT_DIMENSIONS.map((d) => [d, Number(r[d])])),
      method: String(r['path']),
      state: String(r['state']),
      phase: String(r['phase']),
      session: Number(r['session']),
      round: Number(r['round']),
      ok: r['ok'] === true,
      failureReason: r['failure_reason'] === null || r['failure_reason'] === undefined ? null : String(r['failure_reason']),
      wallMs: num(r['completion_ms']),
      ...engineMeasuresOf(r),
    })),
    compression: rows
      .filter((r) => r['cohort'] === COMPRESSION_UNIT && r['phase'] === 'formal')
      .map((r) => ({
        method: String(r['path']),
        round: Number(r['round']),
        layerBytes: Number(r['layer_bytes']),
        compressedBytes: num(r['compressed_bytes']),
        wallMs: num(r['completion_ms']),
        ok: r['ok'] === true,
        note: String(r['note'] ?? ''),
      })),
  };
}
