// The columns of a sample row (schemas/sample.schema.json, snake_case) with
// their DuckDB types and how a CSV cell is read. A test checks this list
// against the schema file.

export type ColumnType = 'string' | 'integer' | 'number' | 'boolean';

export interface SampleColumn {
  name: string;
  type: ColumnType;
  sqlType: string;
  required: boolean;
  nullable: boolean;
  enum?: readonly string[];
  /** A string value must match it (what it means is in `patternText`). */
  pattern?: RegExp;
  patternText?: string;
  minimum?: number;
  /** Value when an imported CSV has no such column (or an empty cell). */
  default?: SampleValue;
}

/** A column; its name and type stay literal, so a row type can be read off a column list (ColumnValues). */
export const col = <N extends string, T extends ColumnType>(
  name: N,
  type: T,
  sqlType: string,
  extra: Partial<SampleColumn> = {},
): SampleColumn & { name: N; type: T } =>
  ({
    name,
    type,
    sqlType,
    required: false,
    nullable: true,
    ...extra,
  }) as SampleColumn & { name: N; type: T };
const req = { required: true, nullable: false };

export const sampleColumns = [
  col('experiment', 'string', 'VARCHAR', req),
  col('cohort', 'string', 'VARCHAR', req),
  col('path', 'string', 'VARCHAR', req),
  col('state', 'string', 'VARCHAR', {
    ...req,
    pattern: /^[a-z][a-z0-9-]*$/,
    patternText: 'a condition name (a lowercase letter, then lowercase letters, digits and -)',
  }),
  col('phase', 'string', 'VARCHAR', { ...req, enum: ['preflight', 'warmup', 'formal', 'canary'] }),
  col('round', 'integer', 'INTEGER', { ...req, minimum: 0 }),
  col('order_in_round', 'integer', 'INTEGER', { ...req, minimum: 0 }),
  col('launch_id', 'string', 'VARCHAR', req),
  col('session', 'integer', 'INTEGER', { nullable: false, minimum: 1, default: 1 }),
  col('host', 'string', 'VARCHAR', { nullable: false, default: 'unknown' }),
  col('ready_ms', 'number', 'DOUBLE'),
  col('completion_ms', 'number', 'DOUBLE'),
  col('content_bytes', 'integer', 'BIGINT', { minimum: 0 }),
  col('response_bytes', 'integer', 'BIGINT', { minimum: 0 }),
  col('ready_content_bytes', 'integer', 'BIGINT', { minimum: 0 }),
  col('fetch_wait_ms', 'number', 'DOUBLE', { minimum: 0 }),
  col('ready_fetch_wait_ms', 'number', 'DOUBLE', { minimum: 0 }),
  col('files_read', 'integer', 'BIGINT', { minimum: 0 }),
  col('image_files', 'integer', 'BIGINT', { minimum: 0 }),
  col('exit_code', 'integer', 'INTEGER'),
  col('signal', 'string', 'VARCHAR'),
  col('ok', 'boolean', 'BOOLEAN', req),
  col('failure_reason', 'string', 'VARCHAR'),
  col('started_at', 'string', 'VARCHAR', req),
  col('user_cpu_ms', 'number', 'DOUBLE'),
  col('sys_cpu_ms', 'number', 'DOUBLE'),
  col('max_rss_kb', 'integer', 'BIGINT', { minimum: 0 }),
  col('previous_path', 'string', 'VARCHAR'),
  col('settle_ms', 'number', 'DOUBLE'),
  col('dirty_kb', 'integer', 'BIGINT', { minimum: 0 }),
  col('writeback_kb', 'integer', 'BIGINT', { minimum: 0 }),
  col('settle_timed_out', 'boolean', 'BOOLEAN'),
  col('value', 'number', 'DOUBLE'),
] as const satisfies readonly SampleColumn[];

export type SampleValue = string | number | boolean | null;

type ValueOf<T extends ColumnType> = T extends 'string' ? string : T extends 'boolean' ? boolean : number;

/** The values of a column list by name, each optional and nullable: an experiment's declared columns as a row type. */
export type ColumnValues<C extends { name: string; type: ColumnType }> = { [K in C as K['name']]?: ValueOf<K['type']> | null };

/** The column list of the samples table, as SQL (`name TYPE [NOT NULL], …`): the one definition of its DDL. */
export function samplesTableColumnsSql(extra: readonly SampleColumn[] = []): string {
  return [...sampleColumns, ...extra].map((c) => `${c.name} ${c.sqlType}${c.nullable ? '' : ' NOT NULL'}`).join(', ');
}
