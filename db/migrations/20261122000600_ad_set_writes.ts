import type { Knex } from 'knex';
import { graphObjectId, graphTimes as times, organizationOwned } from './helpers.ts';
import { audienceIdsOf, conversionIdsOf } from '../../src/ads/rules/restrictions.ts';

/**
 * What ad set writes need (issue 9):
 * - ad_set_references: the custom audiences and conversions each ad set uses, kept beside its JSON, so the
 *   issues of many ad sets are one query and edges can filter on WITH_ISSUES in SQL. Existing rows are filled in.
 * - async_request_sets and async_requests: the platform's asynchronous batch requests (deep copies), stored
 *   so they survive restarts and are claimed by one instance at a time. The first async_requests table was
 *   never written to; it is replaced by one shaped for the job runner.
 * - posts.targeting: a page post's audience restriction (locales), which an ad set promoting it must respect.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ad_set_references', (table) => {
    table.bigInteger('ad_set_id').notNullable().references('id').inTable('ad_sets').onDelete('CASCADE');
    table.string('kind', 32).notNullable(); // custom_audience, custom_conversion
    table.bigInteger('object_id').notNullable();
    table.primary(['ad_set_id', 'kind', 'object_id']);
    table.index(['object_id']);
  });
  const rows: Array<{ id: string | number; targeting: unknown; promoted_object: unknown }> = await knex('ad_sets').select('id', 'targeting', 'promoted_object');
  const parse = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
  const references = rows.flatMap((row) => [
    ...audienceIdsOf(parse(row.targeting)).map((id) => ({ ad_set_id: row.id, kind: 'custom_audience', object_id: id })),
    ...conversionIdsOf(parse(row.promoted_object)).map((id) => ({ ad_set_id: row.id, kind: 'custom_conversion', object_id: id })),
  ]);
  for (let i = 0; i < references.length; i += 500) await knex('ad_set_references').insert(references.slice(i, i + 500));

  const [{ count }] = (await knex('async_requests').count({ count: '*' })) as [{ count: number | string }];
  if (Number(count) !== 0) throw new Error('async_requests is expected to be empty before this migration');
  await knex.schema.dropTable('async_requests');

  await knex.schema.createTable('async_request_sets', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.bigInteger('account_id').notNullable().references('id').inTable('ad_accounts').onDelete('CASCADE');
    table.string('name', 255).notNullable();
    // Who asked (a user's UUID or an API client's id), and how to act for them when the job runs.
    table.string('owner_id', 64).notNullable();
    table.jsonb('principal').notNullable();
    times(table);
    table.index(['account_id', 'id']);
  });

  await knex.schema.createTable('async_requests', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.bigInteger('account_id').notNullable().references('id').inTable('ad_accounts').onDelete('CASCADE');
    table.bigInteger('set_id').notNullable().references('id').inTable('async_request_sets').onDelete('CASCADE');
    // The object the request acts on (the ad set being copied).
    table.bigInteger('adset_id').nullable().references('id').inTable('ad_sets').onDelete('CASCADE');
    table.string('name', 255).notNullable();
    table.string('type', 32).notNullable(); // ADSET_COPY
    table.string('status', 32).notNullable(); // INITIAL, IN_PROGRESS, SUCCESS, ERROR, CANCELED
    table.jsonb('input').notNullable(); // {relative_url, body, params}
    table.jsonb('result').nullable();
    table.jsonb('error').nullable();
    table.integer('attempts').notNullable().defaultTo(0);
    table.string('claimed_by', 64).nullable();
    table.timestamp('lease_expires_at', { useTz: true }).nullable();
    times(table);
    table.index(['set_id', 'id']);
    table.index(['adset_id', 'id']);
    table.index(['status', 'id']);
  });

  await knex.schema.alterTable('posts', (table) => {
    table.jsonb('targeting').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('posts', (table) => table.dropColumn('targeting'));
  await knex.schema.dropTable('async_requests');
  await knex.schema.dropTable('async_request_sets');
  await knex.schema.dropTable('ad_set_references');
  await knex.schema.createTable('async_requests', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.bigInteger('account_id').notNullable().references('id').inTable('ad_accounts').onDelete('CASCADE');
    table.bigInteger('adset_id').nullable().references('id').inTable('ad_sets').onDelete('CASCADE');
    table.string('type', 32).notNullable();
    table.string('status', 16).notNullable();
    table.uuid('requested_by').nullable();
    table.jsonb('params').notNullable();
    table.jsonb('result').nullable();
    table.jsonb('error').nullable();
    table.integer('total_count').notNullable().defaultTo(0);
    table.integer('completed_count').notNullable().defaultTo(0);
    times(table);
    table.index(['adset_id', 'id']);
    table.index(['status']);
  });
}
