// The one adapter around DuckDB (@duckdb/node-api). Everything else in the
// project talks to a Database; swapping the library is a change to this file.
import type { DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api';

export type Row = Record<string, unknown>;
export type Params = DuckDBValue[] | Record<string, DuckDBValue>;

export class Database {
  private constructor(
    readonly path: string,
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
  ) {}

  /** Opens (creating if needed) a database file, or ':memory:'. */
  static async open(path: string, options: { readOnly?: boolean } = {}): Promise<Database> {
    const config: Record<string, string> = { threads: '2' };
    if (options.readOnly) config['access_mode'] = 'READ_ONLY';
    // Loaded on first use: a command that opens no database never loads DuckDB.
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(path, config);
    const connection = await instance.connect();
    return new Database(path, instance, connection);
  }

  async exec(sql: string, params?: Params): Promise<void> {
    await this.connection.run(sql, params);
  }

  /** Rows as plain JS objects (BIGINT as bigint, DOUBLE as number, VARCHAR as string). */
  async all(sql: string, params?: Params): Promise<Row[]> {
    const reader = await this.connection.runAndReadAll(sql, params);
    return reader.getRowObjectsJS() as Row[];
  }

  async one(sql: string, params?: Params): Promise<Row | undefined> {
    return (await this.all(sql, params))[0];
  }

  /** Flushes the write-ahead log into the file so the file alone holds every row. */
  async checkpoint(): Promise<void> {
    await this.connection.run('CHECKPOINT');
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}
