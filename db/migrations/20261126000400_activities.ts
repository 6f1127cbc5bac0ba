import type { Knex } from 'knex';
import { organizationOwned } from './helpers.ts';

/**
 * The change history of ad objects (issue 21, src/ads/activities.ts): one row per change, written in the write's
 * own transaction. Not a graph object (the platform's activities have no id of their own): an increasing id
 * orders and pages them. Kept for ACTIVITY_RETENTION_MONTHS (37, what reports read back), then deleted by the
 * background runner's daily sweep. campaign_id and adset_id place an event under its parents, so an account's, a
 * campaign's and an ad set's history are each one indexed range.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('activities', (table) => {
    table.bigIncrements('id').primary();
    organizationOwned(table);
    table.bigInteger('account_id').notNullable().references('id').inTable('ad_accounts').onDelete('CASCADE');
    table.bigInteger('campaign_id').nullable();
    table.bigInteger('adset_id').nullable();
    table.bigInteger('object_id').notNullable();
    table.string('object_type', 16).notNullable();
    table.string('object_name', 400).notNullable();
    table.string('event_type', 64).notNullable();
    table.string('category', 16).notNullable();
    table.string('translated_event_type', 128).notNullable();
    table.timestamp('event_time', { useTz: true }).notNullable();
    table.string('actor_kind', 16).notNullable();
    table.string('actor_id', 64).nullable();
    table.string('actor_name', 400).notNullable();
    table.string('application_name', 64).notNullable();
    table.json('extra_data').notNullable();
    table.index(['account_id', 'id']);
    table.index(['campaign_id', 'id']);
    table.index(['adset_id', 'id']);
    table.index(['object_id', 'id']);
    table.index(['event_time']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('activities');
}
