import type { Knex } from 'knex';

/**
 * An operator's restriction of an ad account (`adgraph accounts update --restrict <reason>`): while it holds,
 * every write to the account's objects is refused with the platform's error 368; reads go on.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ad_accounts', (table) => {
    table.text('restricted_reason').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ad_accounts', (table) => {
    table.dropColumn('restricted_reason');
  });
}
