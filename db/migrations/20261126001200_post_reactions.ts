import type { Knex } from 'knex';

/** Reactions on posts (LIKE, LOVE, WOW, HAHA, SAD, ANGRY, CARE): one per person or page and post. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('post_reactions', (table) => {
    table.uuid('id').primary();
    table.bigInteger('post_id').notNullable().references('id').inTable('posts').onDelete('CASCADE');
    table.uuid('user_id').nullable().references('id').inTable('users').onDelete('CASCADE');
    table.bigInteger('page_id').nullable().references('id').inTable('pages').onDelete('CASCADE');
    table.string('type', 16).notNullable();
    table.timestamp('created_time', { useTz: true }).notNullable();
    table.unique(['post_id', 'user_id']);
    table.unique(['post_id', 'page_id']);
    table.index(['post_id', 'type']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('post_reactions');
}
