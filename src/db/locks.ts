import type { Knex } from 'knex';
import { dialect, type Db } from './index.ts';

/**
 * Reads a row inside a transaction and holds it until the transaction ends, so concurrent writes to the same
 * object (or to the list of its children) go one after the other. PostgreSQL: `FOR NO KEY UPDATE` (what an
 * UPDATE takes; it leaves foreign-key checks of inserted children free, so no deadlock with them). SQLite: a
 * no-op write first takes the database's write lock, as `BEGIN IMMEDIATE` would, so the reads that follow
 * cannot go stale before this transaction writes (this also holds across processes).
 */
export async function lockRow(
  db: Db,
  trx: Knex.Transaction,
  table: string,
  id: string,
  /** A column the no-op write sets to itself (Graph-style tables' updated_time; identity tables' updated_at). */
  touched = 'updated_time',
): Promise<Record<string, unknown> | undefined> {
  if (dialect(db) === 'postgres') return trx(table).where({ id }).forNoKeyUpdate().first();
  await trx(table)
    .where({ id })
    .update({ [touched]: trx.raw('??', [touched]) });
  return trx(table).where({ id }).first();
}
