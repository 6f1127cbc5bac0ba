import type { Knex } from 'knex';
import { graphObjectId, graphTimes as times, organizationOwned } from './helpers.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ad_accounts', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.string('name', 255).notNullable();
    table.integer('account_status').notNullable().defaultTo(1); // 1 active, 2 disabled, ...
    table.string('currency', 3).notNullable();
    table.string('country', 2).notNullable(); // business country: decides the higher-income budget rules
    table.string('timezone_name', 64).notNullable().defaultTo('Etc/UTC');
    table.boolean('is_bulk').notNullable().defaultTo(false); // bulk accounts may hold 10,000 ad sets
    table.string('default_dsa_payor', 512).nullable();
    table.string('default_dsa_beneficiary', 512).nullable();
    table.bigInteger('spend_cap').nullable();
    table.bigInteger('amount_spent').notNullable().defaultTo(0);
    times(table);
    table.index(['organization_id', 'id']);
  });

  await knex.schema.createTable('campaigns', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.bigInteger('account_id').notNullable().references('id').inTable('ad_accounts').onDelete('CASCADE');
    table.string('name', 400).notNullable();
    table.string('objective', 64).notNullable();
    table.string('status', 16).notNullable(); // ACTIVE, PAUSED, DELETED, ARCHIVED
    table.jsonb('special_ad_categories').notNullable();
    table.string('special_ad_category_country', 2048).nullable();
    table.string('bid_strategy', 64).nullable();
    table.string('buying_type', 32).notNullable().defaultTo('AUCTION');
    table.bigInteger('daily_budget').nullable();
    table.bigInteger('lifetime_budget').nullable();
    table.bigInteger('spend_cap').nullable();
    table.timestamp('start_time', { useTz: true }).nullable();
    table.timestamp('stop_time', { useTz: true }).nullable();
    times(table);
    table.index(['account_id', 'id']);
    table.index(['account_id', 'status']);
  });

  await knex.schema.createTable('custom_audiences', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.bigInteger('account_id').notNullable().references('id').inTable('ad_accounts').onDelete('CASCADE');
    table.string('name', 255).notNullable();
    table.string('subtype', 32).notNullable().defaultTo('CUSTOM'); // CUSTOM, LOOKALIKE, WEBSITE, ...
    table.string('description', 1024).nullable();
    table.jsonb('lookalike_spec').nullable();
    table.string('flagged_reason', 16).nullable(); // health, financial: set only by the platform's review (CLI)
    table.integer('operation_status_code').notNullable().defaultTo(200); // 471 marks a lookalike whose source is flagged
    table.string('operation_status_description', 512).nullable();
    times(table);
    table.index(['account_id', 'id']);
  });

  await knex.schema.createTable('custom_conversions', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.bigInteger('account_id').notNullable().references('id').inTable('ad_accounts').onDelete('CASCADE');
    table.string('name', 255).notNullable();
    table.text('rule').nullable();
    table.string('custom_event_type', 64).nullable();
    table.string('flagged_reason', 16).nullable();
    times(table);
    table.index(['account_id', 'id']);
  });

  await knex.schema.createTable('ad_sets', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.bigInteger('account_id').notNullable().references('id').inTable('ad_accounts').onDelete('CASCADE');
    table.bigInteger('campaign_id').notNullable().references('id').inTable('campaigns').onDelete('CASCADE');
    table.string('name', 400).notNullable();
    table.string('status', 16).notNullable(); // also read as configured_status
    // Scalars of the specification's ad set.
    table.string('asset_feed_id', 32).nullable();
    table.bigInteger('bid_amount').nullable();
    table.string('bid_strategy', 64).nullable();
    table.string('billing_event', 32).nullable();
    table.bigInteger('budget_remaining').nullable();
    table.bigInteger('campaign_active_time').nullable();
    table.string('campaign_attribution', 64).nullable();
    table.bigInteger('daily_budget').nullable();
    table.bigInteger('daily_min_spend_target').nullable();
    table.bigInteger('daily_spend_cap').nullable();
    table.bigInteger('daily_imps').nullable();
    table.string('destination_type', 64).nullable();
    table.string('dsa_beneficiary', 512).nullable();
    table.string('dsa_payor', 512).nullable();
    table.timestamp('start_time', { useTz: true }).nullable();
    table.timestamp('end_time', { useTz: true }).nullable();
    table.bigInteger('lifetime_budget').nullable();
    table.bigInteger('lifetime_imps').nullable();
    table.bigInteger('lifetime_min_spend_target').nullable();
    table.bigInteger('lifetime_spend_cap').nullable();
    table.boolean('is_incremental_attribution_enabled').nullable();
    table.boolean('is_dynamic_creative').nullable();
    table.boolean('is_sac_cfca_terms_certified').nullable();
    table.string('instagram_user_id', 32).nullable();
    table.bigInteger('min_budget_spend_percentage').nullable();
    table.bigInteger('max_budget_spend_percentage').nullable();
    table.bigInteger('existing_customer_budget_percentage').nullable();
    table.bigInteger('anchor_event_attribution_window_days').nullable();
    table.string('automatic_manual_state', 16).nullable();
    table.string('budget_source', 16).nullable();
    table.string('budget_split_set_id', 32).nullable();
    table.string('multi_optimization_goal_weight', 32).nullable();
    table.string('optimization_goal', 64).nullable();
    table.string('optimization_sub_event', 64).nullable();
    table.boolean('recurring_budget_semantics').nullable();
    table.string('review_feedback', 2048).nullable();
    table.string('rf_prediction_id', 32).nullable();
    table.bigInteger('source_adset_id').nullable().references('id').inTable('ad_sets').onDelete('SET NULL');
    table.string('tune_for_category', 64).nullable();
    table.boolean('use_new_app_click').nullable();
    table.string('value_rule_set_id', 32).nullable();
    table.boolean('value_rules_applied').nullable();
    // Nested objects and lists of the specification, kept as JSON.
    for (const column of [
      'adlabels',
      'adset_schedule',
      'attribution_spec',
      'bid_adjustments',
      'bid_constraints',
      'bid_info',
      'brand_safety_config',
      'budget_schedule_specs',
      'campaign_spec',
      'contextual_bundling_spec',
      'creative_sequence',
      'frequency_control_specs',
      'learning_stage_info',
      'pacing_type',
      'promoted_object',
      'regional_regulated_categories',
      'regional_regulation_identities',
      'targeting',
      'targeting_optimization_types',
      'time_based_ad_rotation_id_blocks',
      'time_based_ad_rotation_intervals',
    ]) {
      table.jsonb(column).nullable();
    }
    times(table);
    table.index(['account_id', 'id']);
    table.index(['account_id', 'status']);
    table.index(['campaign_id', 'id']);
    table.index(['source_adset_id']);
  });

  await knex.schema.createTable('ads', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.bigInteger('account_id').notNullable().references('id').inTable('ad_accounts').onDelete('CASCADE');
    table.bigInteger('campaign_id').notNullable().references('id').inTable('campaigns').onDelete('CASCADE');
    table.bigInteger('adset_id').notNullable().references('id').inTable('ad_sets').onDelete('CASCADE');
    table.string('name', 400).notNullable();
    table.string('status', 16).notNullable();
    table.jsonb('creative').nullable();
    table.bigInteger('source_ad_id').nullable();
    times(table);
    table.index(['adset_id', 'id']);
    table.index(['adset_id', 'status']);
    table.index(['campaign_id', 'id']);
    table.index(['account_id', 'id']);
  });

  await knex.schema.createTable('async_requests', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.bigInteger('account_id').notNullable().references('id').inTable('ad_accounts').onDelete('CASCADE');
    table.bigInteger('adset_id').nullable().references('id').inTable('ad_sets').onDelete('CASCADE');
    table.string('type', 32).notNullable(); // e.g. ADSET_COPY
    table.string('status', 16).notNullable(); // PENDING, IN_PROGRESS, COMPLETED, FAILED
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

export async function down(knex: Knex): Promise<void> {
  for (const table of ['async_requests', 'ads', 'ad_sets', 'custom_conversions', 'custom_audiences', 'campaigns', 'ad_accounts']) {
    await knex.schema.dropTableIfExists(table);
  }
}
