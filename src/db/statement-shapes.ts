import { isDeepStrictEqual } from 'node:util';
import type { Knex } from 'knex';
import { dialect, type Db } from './index.ts';
import { RecentlyUsed } from './recently-used.ts';

/**
 * The SQL of the batched reads (./batch.ts), kept by the shape of the statement instead of built anew by Knex at
 * every run. Knex's query builder and compiler cost a nested read about as much as PostgreSQL's parsing did before
 * statements were prepared: every column of a narrowed select list wrapped, every clause compiled, every time.
 *
 * A shape is a text that names everything that decides the SQL (the table, the columns, which filters of which
 * kind, the cursor's direction, …) and nothing that is only bound (ids, cursors, limits). The first run of a shape
 * builds it with Knex as before and keeps Knex's SQL; it also checks that the values the caller says it binds are
 * the ones Knex bound, in Knex's order, and refuses the shape otherwise (a programming error in the caller's
 * shape, found by the first test that runs it). Later runs of the shape send the kept SQL with the caller's values
 * through Knex's runner, so transactions, prepared statements (./postgres-client.ts, ./statement-cache.ts) and
 * the query events (metrics, tracing) see them as any other statement.
 */

/** What a builder's `toSQL` answered, less the bindings and the query's id. */
interface KeptStatement {
  method: string;
  sql: string;
  options: Record<string, unknown>;
  timeout: unknown;
  cancelOnTimeout: unknown;
}

/** The most shapes kept; the least recently used goes first. */
export const KEPT_SHAPES = 1000;

const keptShapes = new RecentlyUsed<string, KeptStatement>(KEPT_SHAPES);

/** The shapes kept (for tests). */
export const keptShapesView = () => keptShapes.view;

let nextQueryId = 0;

/**
 * PostgreSQL's `$n` placeholders written once, when the shape is kept: Knex's runner, which writes them at every
 * run, then finds none and leaves the text the same string, whose hash the connection's prepared statements are
 * looked up by (./postgres-client.ts). A text still holding a `?` (an escaped one, meant literally) is left to Knex.
 */
function positioned(db: Db, sql: string): string {
  if (dialect(db) !== 'postgres') return sql;
  const written = db.client.positionBindings(sql);
  return written.includes('?') ? sql : written;
}

/**
 * The rows of the statement `build` makes, whose shape is `shape` and whose values, in order, are `bindings`.
 * `build` runs on a shape's first use only.
 */
export function shapedQuery(db: Db, shape: string, bindings: readonly unknown[], build: () => Knex.QueryBuilder): PromiseLike<Array<Record<string, unknown>>> {
  type Rows = PromiseLike<Array<Record<string, unknown>>>;
  // An undefined value is a caller's mistake Knex reports with the column named: let it.
  if (bindings.includes(undefined)) return build() as unknown as Rows;
  let built: Knex.QueryBuilder | undefined;
  const { value: kept } = keptShapes.use(`${dialect(db)}\n${shape}`, () => {
    built = build();
    const compiled = built.toSQL() as unknown as KeptStatement & { bindings: unknown[] };
    if (!isDeepStrictEqual(compiled.bindings, bindings)) {
      // Not the values themselves: they may be anything a caller looked up, a token's hash among them.
      throw new Error(`statement shape ${JSON.stringify(shape)}: its values are not the ones Knex binds, in Knex's order`);
    }
    return {
      method: compiled.method,
      sql: positioned(db, compiled.sql),
      options: compiled.options,
      timeout: compiled.timeout,
      cancelOnTimeout: compiled.cancelOnTimeout,
    };
  });
  if (built) return built as unknown as Rows;
  const query = db.queryBuilder();
  // Knex's runner asks the builder for its SQL once, when the statement is sent.
  query.toSQL = () =>
    ({
      ...kept,
      options: { ...kept.options },
      bindings: [...bindings],
      __knexQueryUid: `shaped-${++nextQueryId}`,
    }) as unknown as Knex.Sql;
  return query as unknown as Rows;
}
