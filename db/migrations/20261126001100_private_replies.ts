import type { Knex } from 'knex';

/**
 * Private replies (POST /<comment>/private_replies): the one private message a page sends the author of a person's
 * comment on it, within 7 days of the comment; readable by the page's moderators and the person.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('private_replies', (table) => {
    table.string('id', 64).primary();
    table.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    // Once per comment.
    table.bigInteger('comment_id').notNullable().unique().references('id').inTable('comments').onDelete('CASCADE');
    table.bigInteger('page_id').notNullable().references('id').inTable('pages').onDelete('CASCADE');
    table.uuid('recipient_user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    // The moderator who sent it; null for the page's API client.
    table.uuid('sent_by_user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    table.text('message').notNullable();
    table.timestamp('created_time', { useTz: true }).notNullable();
    table.index(['recipient_user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('private_replies');
}
