import type { Knex } from 'knex';

/**
 * The outbox read by object: a subscription to a job that has already ended answers with the event that told its
 * end (the same id as when it was heard live), found by the object it is about, among however many events the
 * outbox keeps.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('events', (table) => {
    table.index(['object_id', 'topic', 'verb', 'id'], 'events_by_object');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('events', (table) => {
    table.dropIndex(['object_id', 'topic', 'verb', 'id'], 'events_by_object');
  });
}
