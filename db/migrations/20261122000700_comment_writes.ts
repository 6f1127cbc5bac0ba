import type { Knex } from 'knex';

/**
 * What comment writes need (issue 10):
 * - comment_mentions: who each comment tags, beside its message_tags JSON, so lists can show a hidden comment
 *   to the people tagged in it with one SQL condition. Existing comments are filled in.
 * - comments.comment_count goes: a comment's count of replies depends on who asks (hidden replies are not
 *   counted for everyone), so it is counted when read.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('comment_mentions', (table) => {
    table.bigInteger('comment_id').notNullable().references('id').inTable('comments').onDelete('CASCADE');
    table.string('object_id', 64).notNullable(); // a user's UUID, a page's or group's numeric id
    table.string('type', 16).notNullable(); // user, page, group
    table.primary(['comment_id', 'object_id']);
    table.index(['object_id']);
  });
  const rows: Array<{ id: string | number; message_tags: unknown }> = await knex('comments').select('id', 'message_tags');
  const mentions = rows.flatMap((row) => {
    const tags = (typeof row.message_tags === 'string' ? JSON.parse(row.message_tags) : row.message_tags) as Array<{ id: string; type: string }> | null;
    const seen = new Set<string>();
    return (tags ?? [])
      .filter((tag) => !seen.has(tag.id) && seen.add(tag.id))
      .map((tag) => ({ comment_id: row.id, object_id: String(tag.id), type: tag.type }));
  });
  for (let i = 0; i < mentions.length; i += 500) await knex('comment_mentions').insert(mentions.slice(i, i + 500));
  await knex.schema.alterTable('comments', (table) => table.dropColumn('comment_count'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('comments', (table) => table.integer('comment_count').notNullable().defaultTo(0));
  await knex.schema.dropTable('comment_mentions');
}
