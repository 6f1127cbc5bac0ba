import type { Knex } from 'knex';
import { allocateIds, type GraphObjectType } from './ids.ts';
import { defineTable, type TableMapping } from './rows.ts';

/** What every Graph-style object row has: a global numeric id, its owning organization, and its times. */
export interface Owned {
  id: string;
  organizationId: string;
  createdTime: Date;
  updatedTime: Date;
}

export const OWNED_COLUMNS = { id: 'id', organization_id: 'string', created_time: 'date', updated_time: 'date' } as const;

type NewRecord<T extends Owned> = Omit<T, 'id' | 'createdTime' | 'updatedTime'> & Partial<Pick<T, 'createdTime' | 'updatedTime'>>;

/**
 * Insert Graph-style objects of one table, allocating their ids in the same transaction. Many rows are
 * one id statement and one insert, which is what the seed and the ad set copy rely on.
 */
export async function insertObjects<T extends Owned>(trx: Knex, type: GraphObjectType, mapping: TableMapping<T>, inputs: Array<NewRecord<T>>): Promise<T[]> {
  const ids = await allocateIds(trx, type, inputs.length);
  const now = new Date();
  const records = inputs.map((input, i) => ({ createdTime: now, updatedTime: now, ...input, id: ids[i]! }) as unknown as T);
  // SQLite caps bound parameters per statement; chunk so wide rows (ad sets) stay under it.
  const columns = Object.keys(mapping.columns).length;
  const chunk = Math.max(1, Math.floor(30_000 / columns));
  for (let i = 0; i < records.length; i += chunk) {
    await trx(mapping.table).insert(records.slice(i, i + chunk).map((r) => mapping.toRow(r)));
  }
  return records;
}

/** The registry of numeric ids: which type each one is. */
export const graphObjects = defineTable<{ id: string; type: GraphObjectType }>('graph_objects', { id: 'id', type: 'string' });
