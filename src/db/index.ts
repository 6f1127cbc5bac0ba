import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { KEPT_STATEMENTS, PostgresClient, type PostgresConfig } from './postgres-client.ts';
import { SqliteClient } from './sqlite-client.ts';
import { keepPreparedStatements, type PreparingConnection } from './statement-cache.ts';

export type Db = Knex;
export type Dialect = 'sqlite' | 'postgres';

// PostgreSQL returns BIGINT and NUMERIC as strings to avoid precision loss; ids stay strings anyway, and
// counts are converted where they are read. Timestamps come back as Date objects on both databases
// once the stores normalize them (see ./rows.ts).
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);

const parseTimestamptzText = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date | number | null;
const UTC_TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?\+00$/;
/** The two decimal digits of `text` at `at`. */
const twoDigits = (text: string, at: number) => (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;
/**
 * A timestamptz as PostgreSQL writes it when the session's time zone is UTC ("2026-11-27 12:36:56.913+00"), read
 * digit by digit; anything else (another offset, BC, infinity, a year past 9999) by pg's own parser, postgres-date,
 * whose regular expressions were 4% of the server's CPU in a nested read of ad sets. The same Date either way
 * (test/db/timestamps.test.ts): milliseconds are the fraction's first three digits, as Date.UTC truncates them.
 */
export function parseTimestamptz(text: string): Date | number | null {
  if (!UTC_TIMESTAMP.test(text)) return parseTimestamptzText(text);
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  // Date.UTC reads years 0-99 as 1900-1999.
  if (year < 100) return parseTimestamptzText(text);
  let milliseconds = 0;
  // A fraction starts at 20, after the point, and runs to the "+".
  if (text.length > 22)
    for (let at = 20, scale = 100; scale >= 1 && text.charCodeAt(at) !== 43; at++, scale /= 10) milliseconds += (text.charCodeAt(at) - 48) * scale;
  return new Date(Date.UTC(year, twoDigits(text, 5) - 1, twoDigits(text, 8), twoDigits(text, 11), twoDigits(text, 14), twoDigits(text, 17), milliseconds));
}
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, parseTimestamptz);

export interface DatabaseOptions {
  /** PostgreSQL only: put every table in this schema (tests use one schema per file). */
  schema?: string;
  /** PostgreSQL only: statements each connection keeps prepared (./postgres-client.ts); 0 prepares none. */
  preparedStatements?: number;
}

export function dialectOf(url: string): Dialect {
  return url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
}

export function sqliteFilename(url: string): string {
  const path = url.slice('sqlite:'.length);
  if (path === ':memory:') return path;
  if (path === '') throw new Error('DATABASE_URL sqlite: needs a file path, e.g. sqlite:data/adgraph.sqlite');
  return resolve(path);
}

/** Where a DATABASE_URL points, safe to print: SQLite's absolute file, PostgreSQL's URL without its password. */
export interface DatabaseLocation {
  dialect: Dialect;
  /** A DATABASE_URL reaching the same database (SQLite's path made absolute), with no password in it. */
  url: string;
  /** What an operator reads: the SQLite file, or that URL. */
  location: string;
}

export function databaseLocation(url: string): DatabaseLocation {
  if (dialectOf(url) === 'sqlite') {
    const filename = sqliteFilename(url);
    return { dialect: 'sqlite', url: `sqlite:${filename}`, location: filename };
  }
  let shown: string;
  try {
    const parsed = new URL(url);
    parsed.password = '';
    // libpq also reads a password from the query string.
    parsed.searchParams.delete('password');
    shown = parsed.toString();
  } catch {
    // Not a URL that can be taken apart: show the scheme only, never what might be a password.
    shown = 'postgres://(unparsable URL)';
  }
  return { dialect: 'postgres', url: shown, location: shown };
}

// Knex prints its warnings with console.log (stdout) and a stack trace; a lost connection is thrown to the
// caller anyway, which reports it in one line (CLI) or as SERVICE_UNAVAILABLE (server).
const knexLog = { warn: () => {}, error: () => {}, deprecate: () => {}, debug: () => {} };

export function createDatabase(url: string, options: DatabaseOptions = {}): Db {
  if (dialectOf(url) === 'sqlite') {
    const filename = sqliteFilename(url);
    if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
    return knexFactory({
      // better-sqlite3, with rows built faster (./sqlite-client.ts).
      client: SqliteClient as unknown as typeof Knex.Client,
      connection: { filename },
      useNullAsDefault: true,
      log: knexLog,
      pool: {
        min: 1,
        max: 1,
        afterCreate(conn: PreparingConnection & { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
          // WAL lets readers proceed during a write; the busy timeout makes a second process wait for the
          // lock instead of failing at once; SQLite leaves foreign keys off unless asked. A page cache of up to
          // 64 MiB (the default is 2 MiB): a statistics import writes tens of MB of index pages in one
          // transaction, and a small cache spills them to the WAL and reads them back again and again.
          conn.pragma('journal_mode = WAL');
          conn.pragma('foreign_keys = ON');
          conn.pragma('busy_timeout = 5000');
          conn.pragma('cache_size = -65536');
          keepPreparedStatements(conn);
          done(null, conn);
        },
      },
    });
  }
  const config: PostgresConfig = {
    // node-postgres, with the builder's statements prepared once per connection (./postgres-client.ts).
    client: PostgresClient as unknown as typeof Knex.Client,
    log: knexLog,
    connection: { connectionString: url, connectionTimeoutMillis: 5_000 },
    searchPath: options.schema ? [options.schema] : undefined,
    pool: { min: 0, max: 10, acquireTimeoutMillis: 10_000 },
    acquireConnectionTimeout: 10_000,
    preparedStatements: options.preparedStatements ?? KEPT_STATEMENTS,
  };
  return knexFactory(config);
}

/**
 * A pool of its own (at most `connections`) to the database `db` reaches, for background work that must not queue
 * behind requests for the shared pool (the event relay: a subscriber waits for it). SQLite's one connection is
 * shared: its statements run one at a time anyway. The caller destroys what it got unless it is `db` itself.
 */
export function ownPool(db: Db, connections: number): Db {
  if (dialect(db) === 'sqlite') return db;
  const config = db.client.config as Knex.Config;
  return knexFactory({ ...config, pool: { ...config.pool, min: 0, max: connections } });
}

export function dialect(db: Db): Dialect {
  return (db.client as { driverName?: string }).driverName === 'pg' ? 'postgres' : 'sqlite';
}

/** True when an error means the database cannot be reached at all, as opposed to a bad query. */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code;
  if (
    code &&
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'SQLITE_CANTOPEN', '57P01', '57P03', '08006', '08001', '3D000'].includes(code)
  ) {
    return true;
  }
  return error.name === 'KnexTimeoutError' || /Connection terminated|timeout exceeded when trying to connect/i.test(error.message);
}
