import type { Knex } from 'knex';

/**
 * The event outbox (src/events) and the webhook subscriptions that read it (src/webhooks).
 *
 * - `events`: written in the transaction of the change it tells about; `seq` is null until the relay publishes the
 *   row, and then its place in the one order every subscriber and webhook sees (ids are given at insert, but
 *   transactions commit in another order; seq is given by the one relay at a time, after commit).
 * - `webhook_subscriptions`: an API client's callback for one object type (page or ad_account) with its fields, a
 *   cursor in that order, the retry state, and a lease (exactly one instance delivers a subscription at a time).
 * - `page_subscribed_apps`: which apps a page sends its feed to (`POST /<page>/subscribed_apps`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('events', (table) => {
    table.bigIncrements('id').primary();
    table.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    table.string('topic', 16).notNullable();
    table.string('entry_id', 64).notNullable();
    table.string('object_id', 64).notNullable();
    table.string('verb', 16).notNullable();
    table.json('value').notNullable();
    table.json('subject').notNullable();
    table.timestamp('created_time', { useTz: true }).notNullable();
    table.bigInteger('seq').nullable().unique();
    table.timestamp('published_time', { useTz: true }).nullable();
    table.index(['organization_id', 'seq']);
  });
  // The relay's question, "what is committed but not published", reads only the unpublished rows.
  await knex.schema.alterTable('events', (table) => {
    table.index(['id'], 'events_unpublished', { predicate: knex.whereNull('seq') });
  });

  await knex.schema.createTable('webhook_subscriptions', (table) => {
    table.uuid('id').primary();
    table.bigInteger('api_client_id').notNullable().references('id').inTable('api_clients').onDelete('CASCADE');
    table.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    table.string('object', 16).notNullable();
    table.json('fields').notNullable();
    table.string('callback_url', 2048).notNullable();
    // The HMAC key of X-Hub-Signature-256: the server must be able to use it, so it cannot be hashed (docs/decisions).
    table.string('signing_secret', 128).notNullable();
    table.string('status', 16).notNullable();
    table.string('disabled_reason', 300).nullable();
    table.bigInteger('cursor_seq').notNullable();
    table.integer('attempts').notNullable().defaultTo(0);
    table.timestamp('failing_since', { useTz: true }).nullable();
    table.timestamp('next_attempt_at', { useTz: true }).nullable();
    table.string('last_error', 300).nullable();
    table.timestamp('last_delivery_time', { useTz: true }).nullable();
    table.uuid('claimed_by').nullable();
    table.timestamp('lease_expires_at', { useTz: true }).nullable();
    table.timestamp('created_time', { useTz: true }).notNullable();
    table.timestamp('updated_time', { useTz: true }).notNullable();
    table.unique(['api_client_id', 'object']);
    table.index(['organization_id', 'status']);
  });

  await knex.schema.createTable('page_subscribed_apps', (table) => {
    table.bigInteger('page_id').notNullable().references('id').inTable('pages').onDelete('CASCADE');
    table.bigInteger('api_client_id').notNullable().references('id').inTable('api_clients').onDelete('CASCADE');
    table.json('subscribed_fields').notNullable();
    table.timestamp('created_time', { useTz: true }).notNullable();
    table.primary(['page_id', 'api_client_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('page_subscribed_apps');
  await knex.schema.dropTable('webhook_subscriptions');
  await knex.schema.dropTable('events');
}
