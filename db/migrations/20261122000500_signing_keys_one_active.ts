import type { Knex } from 'knex';

// At most one active signing key, enforced by the database: two instances starting at once cannot both
// create one, and a rotation cannot leave two active.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create unique index signing_keys_one_active on signing_keys (active) where active');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index signing_keys_one_active');
}
