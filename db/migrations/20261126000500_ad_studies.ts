import type { Knex } from 'knex';
import { graphObjectId, graphTimes, organizationOwned } from './helpers.ts';

/**
 * Ad studies (split tests, issue 21; src/ads/studies.ts): a study of an ad account over a time window, its cells
 * (each a share of the audience, naming ad sets or campaigns) and the objects each cell names, which the overlap
 * rule (an ad set in one study at a time) and an ad set's `/ad_studies` read. Studies and cells take graph ids.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ad_studies', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.bigInteger('account_id').notNullable().references('id').inTable('ad_accounts').onDelete('CASCADE');
    table.string('name', 400).notNullable();
    table.text('description').nullable();
    table.string('type', 32).notNullable();
    table.timestamp('start_time', { useTz: true }).notNullable();
    table.timestamp('end_time', { useTz: true }).notNullable();
    table.string('created_by', 64).nullable();
    graphTimes(table);
    table.index(['account_id', 'id']);
  });
  await knex.schema.createTable('ad_study_cells', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.bigInteger('study_id').notNullable().references('id').inTable('ad_studies').onDelete('CASCADE');
    table.string('name', 400).notNullable();
    table.integer('treatment_percentage').notNullable();
    graphTimes(table);
    table.index(['study_id', 'id']);
  });
  await knex.schema.createTable('ad_study_objects', (table) => {
    table.bigInteger('study_id').notNullable().references('id').inTable('ad_studies').onDelete('CASCADE');
    table.bigInteger('cell_id').notNullable().references('id').inTable('ad_study_cells').onDelete('CASCADE');
    table.string('object_type', 16).notNullable();
    table.bigInteger('object_id').notNullable();
    table.primary(['cell_id', 'object_type', 'object_id']);
    table.index(['object_id', 'object_type']);
    table.index(['study_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('ad_study_objects');
  await knex.schema.dropTable('ad_study_cells');
  await knex.schema.dropTable('ad_studies');
}
