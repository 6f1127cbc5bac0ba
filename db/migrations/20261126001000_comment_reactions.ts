import type { Knex } from 'knex';

/**
 * Reactions on comments (LIKE, LOVE, WOW, HAHA, SAD, ANGRY, CARE), in the likes' table: a like is the LIKE reaction,
 * one store, one reaction per person (or page) and comment. Existing likes are LIKE reactions.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('comment_likes', (table) => {
    table.string('type', 16).notNullable().defaultTo('LIKE');
    table.index(['comment_id', 'type']);
  });
}

export async function down(knex: Knex): Promise<void> {
  // Going back to likes only: the other reactions go, the likes stay.
  await knex('comment_likes').whereNot({ type: 'LIKE' }).delete();
  await knex.schema.alterTable('comment_likes', (table) => {
    table.dropIndex(['comment_id', 'type']);
    table.dropColumn('type');
  });
}
