import type { Knex } from 'knex';
import { dialect } from '../../src/db/index.ts';
import { graphObjectId, graphTimes, organizationOwned } from './helpers.ts';

/**
 * Creatives become objects (issue 21; src/ads/creatives.ts): an account's creative, which ads reference by id.
 *
 * Every existing ad's creative JSON becomes a creative of its own, field by field: the creative fields the gateway
 * knows go to their columns, anything else the JSON held (a `creative_id` that named nothing, keys of an older
 * shape) is kept whole in `extra`, so no field is lost. `ads.creative` itself is left as it was: it is no longer
 * read or written, and `down` restores ads from it.
 */

/** The creative fields with columns of their own; the migration and src/ads/store.ts agree on them. */
const COLUMN_FIELDS = ['name', 'title', 'body', 'image_url', 'link_url', 'call_to_action_type', 'url_tags', 'object_story_spec'] as const;
const BATCH = 200;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ad_creatives', (table) => {
    graphObjectId(table);
    organizationOwned(table);
    table.bigInteger('account_id').notNullable().references('id').inTable('ad_accounts').onDelete('CASCADE');
    table.string('name', 400).notNullable();
    table.string('status', 16).notNullable();
    table.string('title', 255).nullable();
    table.text('body').nullable();
    table.text('image_url').nullable();
    table.text('link_url').nullable();
    table.string('call_to_action_type', 64).nullable();
    table.text('url_tags').nullable();
    table.jsonb('object_story_spec').nullable();
    table.jsonb('extra').nullable();
    graphTimes(table);
    table.index(['account_id', 'id']);
  });
  await knex.schema.alterTable('ads', (table) => {
    table.bigInteger('creative_id').nullable().references('id').inTable('ad_creatives');
    table.index(['creative_id', 'status']);
  });

  // Keyset batches, each a few statements, so a large table migrates without holding every ad in memory.
  let after = '0';
  for (;;) {
    const rows: Array<Record<string, unknown>> = await knex('ads')
      .select('id', 'organization_id', 'account_id', 'name', 'creative', 'created_time')
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH);
    if (rows.length === 0) break;
    after = String(rows[rows.length - 1]!.id);
    const ids: Array<{ id: string | number }> = await knex('graph_objects')
      .insert(rows.map(() => ({ type: 'ad_creative' })))
      .returning('id');
    const creativeIds = ids.map((row) => String(row.id)).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    const now = new Date();
    // PostgreSQL hands jsonb back parsed; SQLite keeps the text it was given.
    const postgres = dialect(knex) === 'postgres';
    await knex('ad_creatives').insert(rows.map((ad, i) => creativeRow(postgres ? ad.creative : parseText(ad.creative), creativeIds[i]!, ad, now)));
    for (const [i, ad] of rows.entries()) await knex('ads').where({ id: ad.id }).update({ creative_id: creativeIds[i] });
  }
}

/** An ad's creative JSON as a creative row: known fields to columns, the rest kept in `extra`. */
function creativeRow(stored: unknown, id: string, ad: Record<string, unknown>, now: Date): Record<string, unknown> {
  const spec: Record<string, unknown> = stored && typeof stored === 'object' && !Array.isArray(stored) ? { ...(stored as Record<string, unknown>) } : {};
  const row: Record<string, unknown> = {
    id,
    organization_id: ad.organization_id,
    account_id: ad.account_id,
    status: 'ACTIVE',
    created_time: now,
    updated_time: now,
  };
  for (const field of COLUMN_FIELDS) {
    const value = spec[field];
    const fits = field === 'object_story_spec' ? value !== null && typeof value === 'object' && !Array.isArray(value) : typeof value === 'string';
    if (value === undefined || !fits) continue;
    row[field] = field === 'object_story_spec' ? jsonValue(value) : value;
    delete spec[field];
  }
  if (typeof row.name !== 'string' || row.name.trim() === '') row.name = `Creative of ad ${String(ad.name)}`.slice(0, 400);
  if (typeof row.title === 'string' && row.title.length > 255) {
    spec.title = row.title;
    delete row.title;
  }
  // A value that was not JSON at all (or not an object) is kept too, under `creative`.
  const extra = stored && typeof stored === 'object' && !Array.isArray(stored) ? spec : stored === null || stored === undefined ? {} : { creative: stored };
  row.extra = Object.keys(extra).length > 0 ? jsonValue(extra) : null;
  return row;
}

const parseText = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

/** JSON for a jsonb column, as text: the pg driver would bind a JS array as a PostgreSQL array otherwise. */
const jsonValue = (value: unknown) => JSON.stringify(value);

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ads', (table) => {
    table.dropIndex(['creative_id', 'status']);
    table.dropForeign(['creative_id']);
    table.dropColumn('creative_id');
  });
  await knex.schema.dropTable('ad_creatives');
  await knex('graph_objects').where({ type: 'ad_creative' }).delete();
}
