import type { Knex } from 'knex';
import { dialect, type Db } from './index.ts';

/**
 * Reads a row inside a transaction and holds it until the transaction ends, so concurrent writes to the same
 * object (or to the list of its children) go one after the other. PostgreSQL: `FOR NO KEY UPDATE` (what an
 * UPDATE takes; it leaves foreign-key checks of inserted children free, so no deadlock with them). SQLite: every
 * transaction begins IMMEDIATE and holds the database's write lock from its start (./sqlite-client.ts), so the
 * reads that follow cannot go stale before this transaction writes (this also holds across processes).
 */
export async function lockRow(db: Db, trx: Knex.Transaction, table: string, id: string): Promise<Record<string, unknown> | undefined> {
  if (dialect(db) === 'postgres') return trx(table).where({ id }).forNoKeyUpdate().first();
  return trx(table).where({ id }).first();
}
