import type { Knex } from 'knex';
import { graphObjectId, graphTimes, organizationOwned } from './helpers.ts';

/**
 * Asynchronous insights reports (issue 19): `POST /<object>/insights` stores a report run and answers its id at
 * once; the job runner (src/jobs, kind src/insights/reports/job.ts) computes it in the background.
 *
 * insight_report_runs: a Graph object (its id from graph_objects, so GET /v24.0/<id> finds it): who asked and
 * how to act for them, the report's object and query (an InsightsQuery as JSON), its progress, and the lease
 * columns the runner claims it by. Once completed or failed it expires (`expires_at`), and the runner deletes
 * it with its rows (deleting its graph_objects row cascades).
 *
 * insight_report_rows: the result, one row per InsightsRow in report order (`position`), paged by position.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('insight_report_runs', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.bigInteger('account_id').notNullable().references('id').inTable('ad_accounts').onDelete('CASCADE');
    // Who asked (a user's UUID or an API client's id), and how to act for them when the report runs.
    table.string('owner_id', 64).notNullable();
    table.jsonb('principal').notNullable();
    table.string('target_kind', 16).notNullable(); // account, campaign, adset, ad
    table.bigInteger('target_id').notNullable();
    table.jsonb('query').notNullable();
    table.string('status', 16).notNullable(); // NOT_STARTED, STARTED, RUNNING, COMPLETED, FAILED
    table.integer('percent').notNullable().defaultTo(0);
    table.integer('row_count').nullable();
    table.string('date_start', 10).nullable();
    table.string('date_stop', 10).nullable();
    table.jsonb('error').nullable(); // the Graph error body of a failed report
    table.integer('attempts').notNullable().defaultTo(0);
    table.string('claimed_by', 64).nullable();
    table.timestamp('lease_expires_at', { useTz: true }).nullable();
    table.timestamp('completed_time', { useTz: true }).nullable();
    table.timestamp('expires_at', { useTz: true }).nullable();
    graphTimes(table);
    table.index(['status', 'id']);
    table.index(['expires_at']);
  });

  await knex.schema.createTable('insight_report_rows', (table) => {
    table.bigInteger('report_run_id').notNullable().references('id').inTable('insight_report_runs').onDelete('CASCADE');
    table.integer('position').notNullable();
    table.jsonb('row').notNullable(); // an InsightsRow
    table.primary(['report_run_id', 'position']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('insight_report_rows');
  await knex.schema.dropTable('insight_report_runs');
}
