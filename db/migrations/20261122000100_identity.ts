import type { Knex } from 'knex';
import { dialect } from '../../src/db/index.ts';
import { timestamps } from './helpers.ts';

// Graph-style ids start high so they look like the platform's and can never be mistaken for small counters.
export const FIRST_GRAPH_OBJECT_ID = 100_000_000_000_001;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('graph_objects', (table) => {
    table.bigIncrements('id').primary();
    table.string('type', 32).notNullable();
  });
  if (dialect(knex) === 'postgres') {
    await knex.raw(`select setval(pg_get_serial_sequence('graph_objects', 'id'), ?, false)`, [FIRST_GRAPH_OBJECT_ID]);
  } else {
    await knex.raw(`insert into sqlite_sequence (name, seq) values ('graph_objects', ?)`, [FIRST_GRAPH_OBJECT_ID - 1]);
  }

  await knex.schema.createTable('organizations', (table) => {
    table.uuid('id').primary();
    table.string('name', 255).notNullable();
    timestamps(table);
  });
  await knex.raw('create unique index organizations_name_lower_unique on organizations (lower(name))');

  await knex.schema.createTable('users', (table) => {
    table.uuid('id').primary();
    table.string('email', 256).notNullable();
    table.string('username', 64).notNullable();
    table.string('name', 128).notNullable().defaultTo('');
    table.string('login_type', 16).notNullable().defaultTo('password'); // password, github, oidc, token, none
    table.string('hashed_password', 100).nullable(); // bcrypt
    table.string('status', 16).notNullable().defaultTo('active'); // active, dormant, suspended
    table.boolean('site_admin').notNullable().defaultTo(false);
    table.timestamp('last_seen_at', { useTz: true }).nullable();
    timestamps(table);
  });
  await knex.raw('create unique index users_email_lower_unique on users (lower(email))');
  await knex.raw('create unique index users_username_lower_unique on users (lower(username))');

  await knex.schema.createTable('organization_members', (table) => {
    table.uuid('id').primary();
    table.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    table.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('role', 32).notNullable(); // owner, admin, advertiser, moderator, auditor, member
    timestamps(table);
    table.unique(['organization_id', 'user_id']);
    table.index(['user_id']);
  });

  await knex.schema.createTable('sessions', (table) => {
    table.uuid('id').primary();
    table.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('token_hash', 64).notNullable().unique(); // SHA-256 hex of the opaque token
    table.string('login_type', 16).notNullable().defaultTo('password');
    table.string('ip_address', 64).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('last_used_at', { useTz: true }).notNullable();
    table.timestamp('revoked_at', { useTz: true }).nullable();
    table.index(['user_id']);
  });

  await knex.schema.createTable('one_time_passcodes', (table) => {
    table.uuid('id').primary();
    table.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('code_hash', 100).notNullable();
    table.integer('attempts').notNullable().defaultTo(0);
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('used_at', { useTz: true }).nullable();
    table.index(['user_id', 'created_at']);
  });

  await knex.schema.createTable('login_conversions', (table) => {
    table.uuid('id').primary();
    table.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('from_type', 16).notNullable();
    table.string('to_type', 16).notNullable();
    table.string('state_hash', 64).notNullable().unique();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('used_at', { useTz: true }).nullable();
    table.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['login_conversions', 'one_time_passcodes', 'sessions', 'organization_members', 'users', 'organizations', 'graph_objects']) {
    await knex.schema.dropTableIfExists(table);
  }
}
