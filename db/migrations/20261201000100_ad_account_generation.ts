import type { Knex } from 'knex';
import { dialect } from '../../src/db/index.ts';

/**
 * A counter every change to an ad account moves, in the transaction of the change, as the identity generation
 * does for who a session stands for (20261127000300): the ad accounts a serving instance keeps by id across
 * requests are used only while it stands still (src/db/generations.ts). Triggers move it, so every writer is seen,
 * the command line, another instance or psql alike: an account created, changed (restrictions, spend cap, status,
 * ...) or deleted, by cascade too. PostgreSQL moves it once per statement; SQLite, whose triggers are per row,
 * once per row, and also at the no-op write that holds an account while its ad sets are written
 * (src/db/locks.ts): that only makes the accounts kept be read again sooner.
 */
const EVENTS = ['insert', 'update', 'delete'];

const triggerName = (event: string) => `ad_accounts_${event}_generation`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ad_account_generation', (table) => {
    table.integer('id').primary();
    table.bigInteger('value').notNullable();
  });
  await knex('ad_account_generation').insert({ id: 1, value: 0 });
  const postgres = dialect(knex) === 'postgres';
  if (postgres) {
    await knex.raw(`create function ad_accounts_changed() returns trigger language plpgsql as $$
      begin
        update ad_account_generation set value = value + 1 where id = 1;
        return null;
      end $$`);
  }
  for (const event of EVENTS) {
    await knex.raw(
      postgres
        ? `create trigger ${triggerName(event)} after ${event} on ad_accounts for each statement execute function ad_accounts_changed()`
        : `create trigger ${triggerName(event)} after ${event} on ad_accounts begin update ad_account_generation set value = value + 1 where id = 1; end`,
    );
  }
  if (postgres)
    await knex.raw(`create trigger ${triggerName('truncate')} after truncate on ad_accounts for each statement execute function ad_accounts_changed()`);
}

export async function down(knex: Knex): Promise<void> {
  const postgres = dialect(knex) === 'postgres';
  for (const event of postgres ? [...EVENTS, 'truncate'] : EVENTS)
    await knex.raw(`drop trigger if exists ${triggerName(event)}${postgres ? ' on ad_accounts' : ''}`);
  if (postgres) await knex.raw('drop function if exists ad_accounts_changed()');
  await knex.schema.dropTable('ad_account_generation');
}
