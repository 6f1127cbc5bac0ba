import type { Knex } from 'knex';

/**
 * What the fields that depend on delivery need beside the statistics (issue 19, src/insights/delivery.ts):
 * - ad_sets.last_significant_edit_time: when learning last restarted (src/insights/rules/significant-edits.ts);
 *   existing ad sets count from their creation.
 * - ad_sets.status_changed_time, campaigns.status_changed_time: when the status last changed, null while it has
 *   held since creation (a pause of 7 days or more is a significant edit when it ends; a campaign's running length
 *   counts its ACTIVE spells).
 * - campaigns.active_seconds: the running length of the campaign's ended ACTIVE spells (the current one is counted
 *   when read); existing ACTIVE campaigns are running since their creation.
 * - budget_remaining, campaign_active_time and learning_stage_info of ad sets, and amount_spent of ad accounts, go:
 *   they are derived from delivery when read, never stored. Dropped with the databases' own DROP COLUMN (SQLite
 *   3.35 and later): Knex's SQLite form copies the table, which inside the migration's transaction would drop the
 *   original with its foreign keys still enforced.
 */
const DERIVED = [
  ['ad_sets', 'budget_remaining'],
  ['ad_sets', 'campaign_active_time'],
  ['ad_sets', 'learning_stage_info'],
  ['ad_accounts', 'amount_spent'],
] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ad_sets', (table) => {
    table.timestamp('last_significant_edit_time', { useTz: true }).nullable();
    table.timestamp('status_changed_time', { useTz: true }).nullable();
  });
  await knex('ad_sets').update({ last_significant_edit_time: knex.ref('created_time') });
  await knex.schema.alterTable('campaigns', (table) => {
    table.bigInteger('active_seconds').notNullable().defaultTo(0);
    table.timestamp('status_changed_time', { useTz: true }).nullable();
  });
  for (const [table, column] of DERIVED) await knex.raw('alter table ?? drop column ??', [table, column]);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ad_accounts', (table) => table.bigInteger('amount_spent').notNullable().defaultTo(0));
  await knex.schema.alterTable('ad_sets', (table) => {
    table.bigInteger('budget_remaining').nullable();
    table.bigInteger('campaign_active_time').nullable();
    table.jsonb('learning_stage_info').nullable();
  });
  const added = [
    ['ad_sets', 'last_significant_edit_time'],
    ['ad_sets', 'status_changed_time'],
    ['campaigns', 'active_seconds'],
    ['campaigns', 'status_changed_time'],
  ] as const;
  for (const [table, column] of added) await knex.raw('alter table ?? drop column ??', [table, column]);
}
