import { createRequire } from 'node:module';
import type { Knex } from 'knex';

/**
 * Knex's better-sqlite3 client, with rows built faster. better-sqlite3 gives each row as an object it builds one
 * property at a time; past a few dozen columns V8 keeps such objects as hash tables, slow to build and to read (a
 * page of 13 ad sets, 71 columns: 0.3 ms). Here a read runs in better-sqlite3's raw mode (arrays, 0.1 ms) and
 * each row becomes an object through a function compiled once per statement from its column names: an object
 * literal, which V8 builds with a fixed shape. The rows are the same plain objects knex hands out otherwise.
 *
 * A statement's columns can change under it: SQLite prepares it again when the schema changed (a migration,
 * here or in another process). The compiled function is kept with the schema version it was made under, and
 * used only when the version read before and after the statement ran is that one; otherwise it is compiled
 * again from the columns the statement has now, which are those of the rows it just returned.
 */

/** The part of better-sqlite3's API used here. */
interface SqliteStatement {
  readonly reader: boolean;
  /** False for a statement that writes, one that returns rows (`insert … returning`) included. */
  readonly readonly: boolean;
  raw(toggle: boolean): SqliteStatement;
  pluck(toggle?: boolean): SqliteStatement;
  columns(): Array<{ name: string }>;
  all(bindings: unknown[]): unknown[];
  get(): unknown;
  run(bindings: unknown[]): { changes: number; lastInsertRowid: number | bigint };
}

interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
}

interface KnexQuery {
  sql: string;
  bindings?: unknown[];
  options?: { safeIntegers?: boolean };
  response?: unknown;
  context?: { lastID: number | bigint; changes: number };
}

type BetterSqlite3ClientClass = new (config: Knex.Config) => Knex.Client & { _formatBindings(bindings: unknown[] | undefined): unknown[] };
const BetterSqlite3Client = createRequire(import.meta.url)('knex/lib/dialects/better-sqlite3/index.js') as BetterSqlite3ClientClass;

type RowBuilder = (values: unknown[]) => Record<string, unknown>;

/**
 * A function making a row object from a raw row, for these columns. The keys are JSON string literals of the
 * names SQLite reports, and behave as better-sqlite3's own assignments do: a repeated name keeps its last value,
 * and a column named "__proto__" sets no key (both go through the same prototype setter).
 */
function rowBuilder(columns: readonly string[]): RowBuilder {
  return new Function('values', `return { ${columns.map((column, i) => `${JSON.stringify(column)}: values[${i}]`).join(', ')} };`) as RowBuilder;
}

const builders = new WeakMap<SqliteStatement, { schemaVersion: number; build: RowBuilder }>();
const schemaVersionReaders = new WeakMap<SqliteConnection, SqliteStatement>();

function schemaVersionOf(connection: SqliteConnection): number {
  let reader = schemaVersionReaders.get(connection);
  if (!reader) schemaVersionReaders.set(connection, (reader = connection.prepare('pragma schema_version').pluck()));
  return reader.get() as number;
}

function readRows(connection: SqliteConnection, statement: SqliteStatement, bindings: unknown[]): Array<Record<string, unknown>> {
  const before = schemaVersionOf(connection);
  const values = statement.raw(true).all(bindings) as unknown[][];
  const after = schemaVersionOf(connection);
  let kept = builders.get(statement);
  if (!kept || before !== after || kept.schemaVersion !== after) {
    // A schema change while it ran (before !== after) leaves nothing that may be kept: -1 never matches.
    kept = { schemaVersion: before === after ? after : -1, build: rowBuilder(statement.columns().map((column) => column.name)) };
    builders.set(statement, kept);
  }
  return values.map(kept.build);
}

export class SqliteClient extends BetterSqlite3Client {
  // Knex's own _query, but for the rows: see above.
  async _query(connection: SqliteConnection, query: KnexQuery): Promise<KnexQuery> {
    if (!query.sql) throw new Error('The query is empty');
    // Statements are kept and shared (./statement-cache.ts): a mode set for one query would stay for the next.
    if (query.options?.safeIntegers !== undefined) throw new Error('The safeIntegers option is not supported');
    const statement = connection.prepare(query.sql);
    const bindings = this._formatBindings(query.bindings);
    if (statement.reader) {
      // A write that returns rows gets no schema-version reads around it: in a transaction, a read first would
      // begin it as a reader, and SQLite refuses at once (SQLITE_BUSY, whatever the busy timeout) to make a reader
      // a writer while another process writes. better-sqlite3 builds these few rows itself.
      query.response = statement.readonly ? readRows(connection, statement, bindings) : statement.raw(false).all(bindings);
      return query;
    }
    const response = statement.run(bindings);
    query.response = response;
    query.context = { lastID: response.lastInsertRowid, changes: response.changes };
    return query;
  }
}
