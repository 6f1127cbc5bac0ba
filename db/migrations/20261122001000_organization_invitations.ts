import type { Knex } from 'knex';
import { timestamps } from './helpers.ts';

/**
 * Invitations to join an organization (issue 25): an admin's add is an invitation the addressee accepts, so nobody
 * joins an organization without consent. Addressed to an e-mail address, registered or not: whoever has that
 * address when it is accepted joins. `email_key` is the address as it is matched (ASCII letters in lower case).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('organization_invitations', (table) => {
    table.uuid('id').primary();
    table.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    table.string('email', 256).notNullable(); // as the inviter typed it
    table.string('email_key', 256).notNullable();
    table.string('role', 32).notNullable();
    table.string('status', 16).notNullable(); // pending, accepted, declined, revoked, expired
    table.uuid('invited_by_user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    table.uuid('membership_id').nullable().references('id').inTable('organization_members').onDelete('SET NULL');
    timestamps(table);
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('responded_at', { useTz: true }).nullable();
    table.index(['organization_id', 'id']);
    table.index(['email_key', 'id']);
  });
  // One open invitation per organization and address: a new one replaces it (in the same transaction).
  await knex.raw("create unique index organization_invitations_one_pending on organization_invitations (organization_id, email_key) where status = 'pending'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('organization_invitations');
}
