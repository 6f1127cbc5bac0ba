import type { Knex } from 'knex';
import { dialect } from '../../src/db/index.ts';

/**
 * A counter every change to who a session token stands for moves, in the transaction of the change: the session
 * cache (src/identity/session-cache.ts) keeps what it read only while the counter has not moved. Triggers move it,
 * so every writer is seen, another instance, the command line or psql alike: any change to a user (status, site
 * admin, profile, deletion), a session's revocation, expiry or deletion (not its last-used time, touched once a
 * minute), and any change to a membership (an organization's deletion removes its memberships by cascade).
 */
const WATCHED: Array<{ table: string; events: string[] }> = [
  { table: 'users', events: ['update', 'delete'] },
  { table: 'sessions', events: ['update of revoked_at, expires_at, user_id, token_hash', 'delete'] },
  { table: 'organization_members', events: ['insert', 'update', 'delete'] },
];

const triggerName = (table: string, event: string) => `${table}_${event.split(' ')[0]}_identity_changed`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('identity_generation', (table) => {
    table.integer('id').primary();
    table.bigInteger('value').notNullable();
  });
  await knex('identity_generation').insert({ id: 1, value: 0 });
  const postgres = dialect(knex) === 'postgres';
  if (postgres) {
    await knex.raw(`create function identity_changed() returns trigger language plpgsql as $$
      begin
        update identity_generation set value = value + 1 where id = 1;
        return null;
      end $$`);
  }
  for (const { table, events } of WATCHED) {
    for (const event of events) {
      const name = triggerName(table, event);
      await knex.raw(
        postgres
          ? `create trigger ${name} after ${event} on ${table} for each statement execute function identity_changed()`
          : `create trigger ${name} after ${event} on ${table} begin update identity_generation set value = value + 1 where id = 1; end`,
      );
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  const postgres = dialect(knex) === 'postgres';
  for (const { table, events } of WATCHED) {
    for (const event of events) await knex.raw(`drop trigger if exists ${triggerName(table, event)}${postgres ? ` on ${table}` : ''}`);
  }
  if (postgres) await knex.raw('drop function if exists identity_changed()');
  await knex.schema.dropTable('identity_generation');
}
