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
 * used only when the version read after the statement ran is still that one (the version only grows, so it was
 * that one while the statement ran; one read, where two were 9% of a nested read's CPU). Otherwise the statement
 * runs again between two reads of the version, and the function is compiled again from the columns the statement
 * has now, which are those of the rows it just returned. A read runs twice only after a schema change.
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
const requireKnexPart = createRequire(import.meta.url);
const BetterSqlite3Client = requireKnexPart('knex/lib/dialects/better-sqlite3/index.js') as BetterSqlite3ClientClass;

/** The part of knex's SQLite query compiler used here. */
interface SqliteQueryCompiler {
  single: { limit?: unknown; offset?: unknown; skipBinding?: Record<string, boolean | undefined> };
  limit(): string;
  offset(): string;
}
type SqliteQueryCompilerClass = new (client: Knex.Client, builder: unknown, formatter: unknown) => SqliteQueryCompiler;
const SqliteQueryCompilerBase = requireKnexPart('knex/lib/dialects/sqlite3/query/sqlite-querycompiler.js') as SqliteQueryCompilerClass;

/**
 * Knex's SQLite query compiler, but LIMIT and OFFSET are written into the SQL as integers instead of bound.
 * This SQLite is built with STAT4, and binding a parameter the planner may look at (a LIMIT's is one) marks the
 * prepared statement stale, so every run prepared it again: 0.2 ms for the ad set page (71 columns) against
 * 0.03 ms with the number in the text. Knex has already made the value an integer (parseInt); only a safe
 * integer is written, anything else stays a parameter. Each page size is then a statement of its own in the
 * cache (./statement-cache.ts), a handful in practice.
 */
class LiteralLimitQueryCompiler extends SqliteQueryCompilerBase {
  override limit(): string {
    // An offset alone gets SQLite's `limit -1` from knex: a number as well.
    const offsetAlone = this.single.limit === undefined && Number.isSafeInteger(this.single.offset);
    if (offsetAlone || Number.isSafeInteger(this.single.limit)) this.writeLiterally('limit');
    return super.limit();
  }

  override offset(): string {
    if (Number.isSafeInteger(this.single.offset)) this.writeLiterally('offset');
    return super.offset();
  }

  private writeLiterally(attribute: 'limit' | 'offset'): void {
    // A copy: the builder keeps its own settings, whatever compiles it next.
    this.single = { ...this.single, skipBinding: { ...this.single.skipBinding, [attribute]: true } };
  }
}

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
  const kept = builders.get(statement);
  if (kept) {
    const values = statement.raw(true).all(bindings) as unknown[][];
    // The schema version only grows: still the builder's after the run, it was the builder's during the run too.
    if (schemaVersionOf(connection) === kept.schemaVersion) return values.map(kept.build);
  }
  return readRowsAnew(connection, statement, bindings);
}

/** A statement's first run, or its run again after a schema change: between two reads of the version. */
function readRowsAnew(connection: SqliteConnection, statement: SqliteStatement, bindings: unknown[]): Array<Record<string, unknown>> {
  const before = schemaVersionOf(connection);
  const values = statement.raw(true).all(bindings) as unknown[][];
  const after = schemaVersionOf(connection);
  // A schema change while it ran (before !== after) leaves nothing that may be kept: -1 never matches.
  const kept = { schemaVersion: before === after ? after : -1, build: rowBuilder(statement.columns().map((column) => column.name)) };
  builders.set(statement, kept);
  return values.map(kept.build);
}

type SqliteTransactionClass = new (client: Knex.Client, ...rest: unknown[]) => { query(conn: unknown, sql: string): Promise<unknown> };
const SqliteTransactionBase = requireKnexPart('knex/lib/dialects/sqlite3/execution/sqlite-transaction.js') as SqliteTransactionClass;

/**
 * Knex's SQLite transaction, begun IMMEDIATE: it takes the write lock at its start (waiting out another process's
 * write for the busy timeout) instead of at its first write. Begun as a reader, a transaction that reads and then
 * writes fails at once with "database is locked", whatever the busy timeout, when another connection wrote in
 * between: SQLite cannot make a stale reader a writer. A server writes all the time, so every command-line write
 * beside one was exposed. In one process the pool's single connection already runs transactions one at a time,
 * so the lock costs nothing there. Nested transactions are savepoints and begin nothing.
 */
class ImmediateTransaction extends SqliteTransactionBase {
  begin(conn: unknown): Promise<unknown> {
    return this.query(conn, 'BEGIN IMMEDIATE;');
  }
}

export class SqliteClient extends BetterSqlite3Client {
  override queryCompiler(builder: unknown, formatter?: unknown): SqliteQueryCompiler {
    return new LiteralLimitQueryCompiler(this, builder, formatter);
  }

  override transaction(...rest: unknown[]): Knex.Transaction {
    return new ImmediateTransaction(this, ...rest) as unknown as Knex.Transaction;
  }

  // Knex's own _query, but for the rows: see above.
  async _query(connection: SqliteConnection, query: KnexQuery): Promise<KnexQuery> {
    if (!query.sql) throw new Error('The query is empty');
    // Statements are kept and shared (./statement-cache.ts): a mode set for one query would stay for the next.
    if (query.options?.safeIntegers !== undefined) throw new Error('The safeIntegers option is not supported');
    const statement = connection.prepare(query.sql);
    const bindings = this._formatBindings(query.bindings);
    if (statement.reader) {
      // A write that returns rows runs once as it is: readRows may run a statement again after a schema change,
      // and a write must not happen twice. better-sqlite3 builds these few rows itself.
      query.response = statement.readonly ? readRows(connection, statement, bindings) : statement.raw(false).all(bindings);
      return query;
    }
    const response = statement.run(bindings);
    query.response = response;
    query.context = { lastID: response.lastInsertRowid, changes: response.changes };
    return query;
  }
}
