import type { Knex } from 'knex';
import { graphObjectId, graphTimes as times, organizationOwned } from './helpers.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('pages', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.string('name', 255).notNullable();
    table.string('category', 128).nullable();
    times(table);
    table.index(['organization_id', 'id']);
  });

  await knex.schema.createTable('page_roles', (table) => {
    // Per-page tasks beside the organization role (MANAGE, CREATE_CONTENT, MODERATE, ADVERTISE, ANALYZE).
    table.uuid('id').primary();
    table.bigInteger('page_id').notNullable().references('id').inTable('pages').onDelete('CASCADE');
    table.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.jsonb('tasks').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.unique(['page_id', 'user_id']);
    table.index(['user_id']);
  });

  await knex.schema.createTable('posts', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.bigInteger('page_id').notNullable().references('id').inTable('pages').onDelete('CASCADE');
    // page_post, visitor_post, photo, video, event, group_post, review
    table.string('kind', 16).notNullable();
    table.uuid('author_user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    table.bigInteger('author_page_id').nullable().references('id').inTable('pages').onDelete('SET NULL');
    table.text('message').nullable();
    table.jsonb('attachment').nullable();
    table.string('title', 255).nullable(); // events and reviews
    table.integer('rating').nullable(); // reviews
    table.timestamp('event_start_time', { useTz: true }).nullable();
    times(table);
    table.index(['page_id', 'id']);
  });

  await knex.schema.createTable('comments', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.bigInteger('post_id').notNullable().references('id').inTable('posts').onDelete('CASCADE');
    table.bigInteger('parent_id').nullable().references('id').inTable('comments').onDelete('CASCADE');
    table.uuid('author_user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    table.bigInteger('author_page_id').nullable().references('id').inTable('pages').onDelete('SET NULL');
    table.text('message').nullable();
    table.jsonb('attachment').nullable();
    table.jsonb('message_tags').notNullable();
    table.boolean('is_hidden').notNullable().defaultTo(false);
    table.integer('comment_count').notNullable().defaultTo(0);
    table.integer('like_count').notNullable().defaultTo(0);
    times(table);
    table.index(['post_id', 'parent_id', 'id']);
    table.index(['parent_id', 'id']);
  });

  await knex.schema.createTable('comment_likes', (table) => {
    table.uuid('id').primary();
    table.bigInteger('comment_id').notNullable().references('id').inTable('comments').onDelete('CASCADE');
    table.uuid('user_id').nullable().references('id').inTable('users').onDelete('CASCADE');
    table.bigInteger('page_id').nullable().references('id').inTable('pages').onDelete('CASCADE');
    table.timestamp('created_time', { useTz: true }).notNullable();
    table.unique(['comment_id', 'user_id']);
    table.unique(['comment_id', 'page_id']);
  });

  await knex.schema.createTable('email_outbox', (table) => {
    table.uuid('id').primary();
    table.string('to_address', 256).notNullable();
    table.string('subject', 255).notNullable();
    table.text('body_text').notNullable();
    table.string('kind', 32).notNullable(); // one_time_passcode, ...
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('sent_at', { useTz: true }).nullable();
    table.string('error', 1024).nullable();
    table.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['email_outbox', 'comment_likes', 'comments', 'posts', 'page_roles', 'pages']) {
    await knex.schema.dropTableIfExists(table);
  }
}
