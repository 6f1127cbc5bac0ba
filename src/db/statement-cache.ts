import { RecentlyUsed } from './recently-used.ts';
import { withPlanIndependentEqualities } from './sqlite-equalities.ts';

/**
 * Prepared statements of a better-sqlite3 connection, kept by SQL text. Knex's better-sqlite3 client prepares
 * every statement anew on every query (knex/lib/dialects/better-sqlite3 `_query` calls `connection.prepare`),
 * and preparing costs about as much as running a small read. A kept statement stays right across schema
 * changes: SQLite prepares it again by itself when a migration changed a table it reads, and better-sqlite3
 * reads the columns on every run. A kept statement is shared by every query with its text, so nothing may set a
 * mode on it for one query only: ./sqlite-client.ts runs every read in raw mode and refuses knex's per-query
 * `safeIntegers` option. What is prepared is the text with its equalities made independent of their values
 * (./sqlite-equalities.ts), kept under the text asked for.
 */
export interface PreparingConnection {
  prepare(sql: string): object;
}

/** The most statements one connection keeps; the least recently used goes first. */
export const KEPT_STATEMENTS = 500;

const keptBy = new WeakMap<PreparingConnection, RecentlyUsed<string, object>>();

/** The statements a connection keeps, by SQL text, least recently used first (for tests). */
export const keptStatements = (connection: PreparingConnection) => keptBy.get(connection)?.view;

/** Makes `connection.prepare` answer from the statements it prepared before. */
export function keepPreparedStatements(connection: PreparingConnection, capacity = KEPT_STATEMENTS): void {
  const prepare = connection.prepare.bind(connection);
  const kept = new RecentlyUsed<string, object>(capacity);
  connection.prepare = (sql: string) => kept.use(sql, () => prepare(withPlanIndependentEqualities(sql))).value;
  keptBy.set(connection, kept);
}
