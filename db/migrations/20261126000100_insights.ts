import type { Knex } from 'knex';

/**
 * Statistics of delivery (issue 19). The gateway is not the ad server: delivery reaches it as data, imported
 * into daily facts in the ad account's time zone.
 *
 * insight_facts: one row per object, day and breakdown values, kept at every level (ad, and rolled up on import
 * to ad set, campaign and account), so a report reads as many rows as it returns times the days it covers,
 * whatever the number of ads or the length of history. Each event is counted in every breakdown family
 * (src/insights/rules/breakdowns.ts BREAKDOWN_FAMILIES); a family's columns hold values, the others ''. Counts and money
 * (minor units of the account currency) are integers; reach and unique clicks are mergeable sketches
 * (src/insights/sketch.ts), merged when a report spans several rows.
 *
 * insight_imports: every import, by the SHA-256 of its bytes, so the same file imported twice changes nothing.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('insight_facts', (table) => {
    table.bigIncrements('id').primary();
    table.string('level', 8).notNullable(); // ad, adset, campaign, account
    table.bigInteger('object_id').notNullable(); // the id at that level
    table.bigInteger('account_id').notNullable().references('id').inTable('ad_accounts').onDelete('CASCADE');
    table.bigInteger('campaign_id').nullable(); // null at account level
    table.bigInteger('adset_id').nullable(); // null at account and campaign level
    table.bigInteger('ad_id').nullable(); // set at ad level only
    table.string('day', 10).notNullable(); // YYYY-MM-DD in the account's time zone
    table.string('family', 64).notNullable(); // '' or a BREAKDOWN_FAMILIES key
    table.string('age', 8).notNullable().defaultTo('');
    table.string('gender', 8).notNullable().defaultTo('');
    table.string('country', 2).notNullable().defaultTo('');
    table.string('publisher_platform', 32).notNullable().defaultTo('');
    table.string('platform_position', 48).notNullable().defaultTo('');
    table.string('device_platform', 16).notNullable().defaultTo('');
    table.bigInteger('impressions').notNullable().defaultTo(0);
    table.bigInteger('clicks').notNullable().defaultTo(0);
    table.bigInteger('inline_link_clicks').notNullable().defaultTo(0);
    table.bigInteger('spend').notNullable().defaultTo(0); // minor units of the account currency
    table.jsonb('actions').notNullable(); // {action_type: count}
    table.jsonb('action_values').notNullable(); // {action_type: minor units}
    table.binary('reach_sketch').nullable(); // people reached
    table.binary('clicker_sketch').nullable(); // people who clicked (unique_clicks)
    table.unique(['level', 'object_id', 'family', 'day', 'age', 'gender', 'country', 'publisher_platform', 'platform_position', 'device_platform'], {
      indexName: 'insight_facts_key',
    });
    // A level's rows of one account over a window (reports at level=X on the account, and the account's own).
    table.index(['account_id', 'level', 'family', 'day'], 'insight_facts_account_window');
    // The same, object by object: pages of a report at a lower level walk objects in id order (keyset paging).
    table.index(['account_id', 'level', 'family', 'object_id', 'day'], 'insight_facts_account_objects');
  });

  await knex.schema.createTable('insight_imports', (table) => {
    table.uuid('id').primary();
    table.string('sha256', 64).notNullable().unique();
    table.string('source', 512).notNullable(); // file name, or '-' for standard input
    table.string('format', 16).notNullable(); // events, daily
    table.bigInteger('lines').notNullable();
    table.bigInteger('records').notNullable(); // events or daily rows read
    table.bigInteger('facts_written').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('insight_imports');
  await knex.schema.dropTableIfExists('insight_facts');
}
