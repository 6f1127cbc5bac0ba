import type { Knex } from 'knex';

/** Graph-style objects take their primary key from graph_objects, so ids are unique across every type. */
export function graphObjectId(table: Knex.CreateTableBuilder): void {
  table.bigInteger('id').primary().references('id').inTable('graph_objects').onDelete('CASCADE');
}

export function timestamps(table: Knex.CreateTableBuilder, created = 'created_at', updated = 'updated_at'): void {
  // No database defaults: the application writes every timestamp, so both databases store the same kind of value.
  table.timestamp(created, { useTz: true }).notNullable();
  table.timestamp(updated, { useTz: true }).notNullable();
}

export function organizationOwned(table: Knex.CreateTableBuilder): void {
  // Denormalized from the owning ad account or page (never changes), so authorization is a pure check on the row.
  table.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
}

/** Graph-style objects name their timestamps created_time / updated_time, as the API returns them. */
export function graphTimes(table: Knex.CreateTableBuilder): void {
  table.timestamp('created_time', { useTz: true }).notNullable();
  table.timestamp('updated_time', { useTz: true }).notNullable();
}
