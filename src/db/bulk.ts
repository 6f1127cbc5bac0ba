import type { Knex } from 'knex';
import { dialect } from './index.ts';

/**
 * A statement with thousands of bindings (a multi-row upsert of statistics: 500 rows of 22), run on the
 * transaction's own connection instead of through `trx.raw`. Knex rewrites a raw statement's placeholders one at a
 * time, a callback per `?`: a tenth of the CPU the demo data's seeding spends, and a few percent of a statistics
 * import's. Here the SQL is the project's own, written once with plain `?` placeholders (numbered for PostgreSQL
 * once per text), and the bindings are what both drivers take as they are: strings, numbers, Buffers and null.
 *
 * What it gives up: knex's 'query' events (statement counts and trace spans do not see these statements).
 */

/** What both drivers take as it is; PostgreSQL also takes arrays of it (for `unnest`). */
type Binding = string | number | Buffer | null | Array<string | number | Buffer | null>;

interface SqliteConnection {
  prepare(sql: string): { run(bindings: unknown[]): unknown };
}
interface PostgresConnection {
  query(sql: string, bindings: Binding[]): Promise<unknown>;
}

const numbered = new Map<string, string>();

/** `?` placeholders as PostgreSQL's $1, $2, …: the project's SQL holds no `?` in a literal or an identifier. */
function numberedPlaceholders(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    if (numbered.size > 64) numbered.clear();
    numbered.set(sql, text);
  }
  return text;
}

export async function runBulkStatement(trx: Knex.Transaction, sql: string, bindings: Binding[]): Promise<void> {
  // A transaction's client hands out the transaction's one connection (and takes nothing back).
  const connection: unknown = await trx.client.acquireConnection();
  if (dialect(trx) === 'postgres') await (connection as PostgresConnection).query(numberedPlaceholders(sql), bindings);
  // better-sqlite3 prepares through ./statement-cache.ts: the same text is parsed once.
  else (connection as SqliteConnection).prepare(sql).run(bindings);
}
