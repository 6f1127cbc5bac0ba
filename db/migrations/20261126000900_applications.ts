import type { Knex } from 'knex';
import { timestamps } from './helpers.ts';

/**
 * Applications an ad set may promote (`promoted_object.application_id`), registered by an operator under their
 * platform ids (`adgraph apps create`), each with its store URLs; an unknown id is refused with error 900.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('applications', (table) => {
    table.bigInteger('id').primary();
    table.string('name', 255).notNullable();
    // {"google_play": "https://play.google.com/...", "itunes": "https://apps.apple.com/...", ...}
    table.jsonb('store_urls').notNullable();
    timestamps(table);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('applications');
}
