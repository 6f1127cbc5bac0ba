import type { Knex } from 'knex';
import { graphObjectId, graphTimes, organizationOwned } from './helpers.ts';

/**
 * Automated rules (issue 21; src/ads/ad-rules.ts, rules in src/ads/rules/ad-rules.ts):
 * - ad_rules: an account's rules, their specs as the Graph API writes them, the principal they act as, and the
 *   last scheduled period that was queued (`last_period`), which makes each period run once however many
 *   instances look and however long they were down.
 * - ad_rule_objects: the objects a rule's id filters name (IN or NOT_IN), which `/<ad set>/adrules_governed` reads.
 * - ad_rule_runs: one evaluation each, a job of the background runner (leased like asynchronous requests) and then
 *   the rule's history; a scheduled period's run is unique per rule.
 * - ad_rule_object_actions: when a rule last acted on an object (its action_frequency).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ad_rules', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.bigInteger('account_id').notNullable().references('id').inTable('ad_accounts').onDelete('CASCADE');
    table.string('name', 100).notNullable();
    table.string('status', 16).notNullable();
    table.string('entity_type', 16).notNullable();
    table.string('evaluation_type', 16).notNullable();
    table.jsonb('evaluation_spec').notNullable();
    table.jsonb('execution_spec').notNullable();
    table.jsonb('schedule_spec').nullable();
    table.jsonb('principal').notNullable();
    table.string('created_by', 64).nullable();
    table.timestamp('last_period', { useTz: true }).nullable();
    graphTimes(table);
    table.index(['account_id', 'id']);
    table.index(['status', 'id']);
  });
  await knex.schema.createTable('ad_rule_objects', (table) => {
    table.bigInteger('rule_id').notNullable().references('id').inTable('ad_rules').onDelete('CASCADE');
    // id (of the rule's entity type), campaign (campaign.id) or adset (adset.id).
    table.string('kind', 16).notNullable();
    table.string('operator', 8).notNullable();
    table.bigInteger('object_id').notNullable();
    table.primary(['rule_id', 'kind', 'object_id']);
    table.index(['object_id', 'kind']);
  });
  await knex.schema.createTable('ad_rule_runs', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.bigInteger('rule_id').notNullable().references('id').inTable('ad_rules').onDelete('CASCADE');
    table.bigInteger('account_id').notNullable().references('id').inTable('ad_accounts').onDelete('CASCADE');
    // The scheduled instant this run is for; null for a run asked for (POST /<rule>/execute).
    table.timestamp('period', { useTz: true }).nullable();
    table.boolean('is_manual').notNullable();
    table.string('status', 16).notNullable(); // PENDING, RUNNING, DONE, FAILED, CANCELED
    table.jsonb('evaluation_spec').notNullable();
    table.jsonb('execution_spec').notNullable();
    table.jsonb('schedule_spec').nullable();
    table.jsonb('results').nullable();
    table.integer('exception_code').nullable();
    table.text('exception_message').nullable();
    table.integer('attempts').notNullable().defaultTo(0);
    table.string('claimed_by', 64).nullable();
    table.timestamp('lease_expires_at', { useTz: true }).nullable();
    graphTimes(table);
    table.unique(['rule_id', 'period']);
    table.index(['rule_id', 'id']);
    table.index(['status', 'id']);
  });
  await knex.schema.createTable('ad_rule_object_actions', (table) => {
    table.bigInteger('rule_id').notNullable().references('id').inTable('ad_rules').onDelete('CASCADE');
    table.bigInteger('object_id').notNullable();
    table.timestamp('acted_at', { useTz: true }).notNullable();
    table.primary(['rule_id', 'object_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('ad_rule_object_actions');
  await knex.schema.dropTable('ad_rule_runs');
  await knex.schema.dropTable('ad_rule_objects');
  await knex.schema.dropTable('ad_rules');
  await knex('graph_objects').whereIn('type', ['ad_rule', 'ad_rule_run']).delete();
}
