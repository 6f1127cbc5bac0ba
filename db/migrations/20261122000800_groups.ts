import type { Knex } from 'knex';
import { graphObjectId, graphTimes as times, organizationOwned } from './helpers.ts';

/**
 * Groups, as far as comments need them (issue 10): a numeric Graph id and a name that `@[<id>]` mentions
 * resolve to. The organization runs the group, as it runs its pages.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('groups', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.string('name', 255).notNullable();
    times(table);
    table.index(['organization_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('groups');
}
