import type { Knex } from 'knex';

/**
 * A page of a list is an index range scan of (parent, id) from the cursor that stops after the page
 * (src/db/batch.ts pagedChildren). These lists had no such index, so each page sorted the parent's whole list.
 * Where a one-column index on the parent existed, the new one replaces it (it serves the same lookups).
 */
const PAGING_INDEXES: Array<{ table: string; columns: [string, 'id']; replaces?: string }> = [
  // The copies of an ad set.
  { table: 'ad_sets', columns: ['source_adset_id', 'id'], replaces: 'source_adset_id' },
  // A post's comments with their replies (filter=stream); top-level ones use (post_id, parent_id, id).
  { table: 'comments', columns: ['post_id', 'id'] },
  { table: 'comment_likes', columns: ['comment_id', 'id'] },
  { table: 'organization_members', columns: ['organization_id', 'id'] },
  { table: 'api_clients', columns: ['organization_id', 'id'], replaces: 'organization_id' },
];

export async function up(knex: Knex): Promise<void> {
  for (const { table, columns, replaces } of PAGING_INDEXES) {
    await knex.schema.alterTable(table, (t) => {
      t.index(columns);
      if (replaces) t.dropIndex([replaces]);
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const { table, columns, replaces } of PAGING_INDEXES) {
    await knex.schema.alterTable(table, (t) => {
      if (replaces) t.index([replaces]);
      t.dropIndex(columns);
    });
  }
}
