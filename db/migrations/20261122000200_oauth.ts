import type { Knex } from 'knex';
import { timestamps } from './helpers.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_clients', (table) => {
    // A 64-bit auto-incremented id as the specification's client record has, drawn from graph_objects so it
    // is unique among every other numeric id too.
    table.bigInteger('id').primary().references('id').inTable('graph_objects').onDelete('CASCADE');
    table.string('client_id', 128).notNullable().unique();
    table.string('client_name', 255).notNullable();
    table.string('client_secret', 100).notNullable(); // bcrypt hash only
    table.integer('secret_version').notNullable().defaultTo(1); // bumped on rotation: invalidates cached verifications
    table.string('scope', 1024).notNullable().defaultTo('');
    table.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    timestamps(table);
    table.index(['organization_id']);
  });

  await knex.schema.createTable('signing_keys', (table) => {
    table.string('kid', 64).primary();
    table.string('algorithm', 16).notNullable().defaultTo('RS256');
    table.text('public_jwk').notNullable();
    table.text('private_key_pem').notNullable();
    table.boolean('active').notNullable().defaultTo(false);
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('retired_at', { useTz: true }).nullable();
    table.timestamp('publish_until', { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('signing_keys');
  await knex.schema.dropTableIfExists('api_clients');
}
