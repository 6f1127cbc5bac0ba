import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import { RecentlyUsed } from './recently-used.ts';

/**
 * Knex's PostgreSQL client, with the statements the query builder makes prepared once per connection. Knex sends
 * every statement unnamed, so PostgreSQL parsed and planned it again on every run: for the nested read of ad sets
 * with their campaigns and ads, that was most of the database's work (parse and plan 0.2-0.5 ms a statement,
 * running it 0.05 ms) and 60% of PostgreSQL's CPU per request. A named statement is parsed once per connection
 * and PostgreSQL keeps its plan (a generic one after five runs unless custom plans are cheaper: plan_cache_mode's
 * default).
 *
 * What is named: the reads and writes the query builder made (PREPARED_METHODS); raw SQL and DDL are sent as
 * before. Each connection keeps at most `preparedStatements` (the knex config entry, DATABASE_PREPARED_STATEMENTS;
 * 0 prepares none, for PgBouncer in transaction mode before 1.21); the least recently used one is deallocated. An
 * `in (…)` list is a statement per length: the batch loaders use `= any($1)` instead (./batch.ts).
 *
 * A schema change under a kept statement that reads `*` (a migration run by another instance) makes PostgreSQL
 * refuse it once: "cached plan must not change result type". The statement is dropped and, outside a
 * transaction, sent once more unnamed; in a transaction, which the refusal has aborted, the caller gets the error.
 */

/** The knex configuration this client reads. */
export type PostgresConfig = Knex.Config & { preparedStatements: number };

/** The part of node-postgres' client used here. */
interface PgConnection {
  /** `describedStatements`: each kept statement's row description (patches/pg+8.23.1.patch). */
  connection: { parsedStatements: Record<string, string | undefined>; describedStatements?: Record<string, unknown> };
  query(config: { text: string }, callback: (error: Error | null) => void): unknown;
  /** Set by knex on a transaction's connection. */
  __knexTxId?: string;
}

interface KnexQuery {
  sql: string;
  bindings?: unknown[];
  method?: string;
  options?: Record<string, unknown>;
}

type PgClientClass = new (config: Knex.Config) => Knex.Client & { _query(connection: PgConnection, query: KnexQuery): Promise<KnexQuery> };
const PgClientBase = createRequire(import.meta.url)('knex/lib/dialects/postgres/index.js') as PgClientClass;

/**
 * The query builder's reads and writes: what is prepared. Not raw SQL (it may hold several commands, which a
 * prepared statement cannot), nor the schema builder's DDL (run once), nor truncate or columnInfo.
 */
const PREPARED_METHODS = new Set<string | undefined>(['select', 'first', 'pluck', 'insert', 'update', 'del', 'counter', 'upsert']);

/** The default of statements one connection keeps. */
export const KEPT_STATEMENTS = 500;

/** PostgreSQL's SQLSTATE (feature_not_supported) when the columns of a kept plan's result changed under it. */
const RESULT_CHANGED = '0A000';

/**
 * By its code alone: the message is in the server's language (lc_messages). The code's other errors are
 * deterministic, so sending the statement once more unnamed costs them one round trip and the same error.
 */
function resultChanged(error: unknown): boolean {
  return (error as { code?: unknown }).code === RESULT_CHANGED;
}

/** A connection's statements: names by SQL text, least recently used first. */
class KeptStatements {
  readonly names: RecentlyUsed<string, string>;
  private next = 1;

  constructor(capacity: number) {
    this.names = new RecentlyUsed(capacity);
  }

  /** The name of `sql`'s statement, and the name of one to deallocate first when the connection keeps too many. */
  nameFor(sql: string): { name: string; evicted?: string } {
    const { value: name, evicted } = this.names.use(sql, () => `adgraph_q${this.next++}`);
    return { name, evicted };
  }
}

/**
 * Deallocates a statement on the server, before the connection's next statement is sent (node-postgres 9 refuses
 * a statement sent while another runs). A failure is the server not having it, which is what was wanted; a lost
 * connection fails the next statement anyway.
 */
function deallocate(connection: PgConnection, name: string): Promise<void> {
  delete connection.connection.parsedStatements[name];
  delete connection.connection.describedStatements?.[name];
  return new Promise((resolve) => void connection.query({ text: `deallocate "${name}"` }, () => resolve()));
}

const keptBy = new WeakMap<PgConnection, KeptStatements>();

/** The statement names a connection keeps, by SQL text, least recently used first (for tests). */
export const keptStatements = (connection: object): ReadonlyMap<string, string> | undefined => keptBy.get(connection as PgConnection)?.names.view;

export class PostgresClient extends PgClientBase {
  declare config: PostgresConfig;

  override async _query(connection: PgConnection, query: KnexQuery): Promise<KnexQuery> {
    const capacity = this.config.preparedStatements;
    if (capacity <= 0 || !PREPARED_METHODS.has(query.method!) || !query.sql || query.options?.name !== undefined) return super._query(connection, query);
    let kept = keptBy.get(connection);
    if (!kept) keptBy.set(connection, (kept = new KeptStatements(capacity)));
    const { name, evicted } = kept.nameFor(query.sql);
    if (evicted !== undefined) await deallocate(connection, evicted);
    try {
      return await super._query(connection, { ...query, options: { ...query.options, name } });
    } catch (error) {
      if (!resultChanged(error)) throw error;
      kept.names.delete(query.sql);
      await deallocate(connection, name);
      if (connection.__knexTxId !== undefined) throw error;
      return super._query(connection, query);
    }
  }
}
