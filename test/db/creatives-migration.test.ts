import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import type { AppDeps } from '../../src/context/index.ts';
import { allocateIds } from '../../src/db/ids.ts';
import { dialect } from '../../src/db/index.ts';
import { migrationSource } from '../../db/migrations/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { worldBuilder } from '../helpers/world.ts';

// Issue 21: ads carried their creative as JSON; the migration makes each one a creative object without losing a
// field (known fields to columns, the rest kept whole in `extra`), and its down step gives the ads back as they were.

const MIGRATION = '20261126000600_ad_creatives';
const COLUMNS = ['name', 'title', 'body', 'image_url', 'link_url', 'call_to_action_type', 'url_tags', 'object_story_spec'] as const;

/** The migrations before this one (the database as an older release left it), and up to this one. */
const upTo = (last: (name: string) => boolean): Knex.MigrationSource<string> => ({
  ...migrationSource,
  getMigrations: async (extensions) => (await migrationSource.getMigrations(extensions)).filter(last),
});
const before = upTo((name) => name < MIGRATION);
const through = upTo((name) => name <= MIGRATION);

let postgres = false;
/** A jsonb value as stored: PostgreSQL answers it parsed, SQLite as the text it was given. */
const parsed = (value: unknown) => (!postgres && typeof value === 'string' ? (JSON.parse(value) as unknown) : value);

const LONG_TITLE = 't'.repeat(300);
/** What older releases stored (the ad's name, then its creative as the API took it). */
const LEGACY: Array<[string, unknown]> = [
  [
    'Every field',
    {
      name: 'Spring creative',
      title: 'Spring',
      body: 'Hello',
      image_url: 'https://cdn.example/a.png',
      link_url: 'https://northwind.example/',
      call_to_action_type: 'SHOP_NOW',
      url_tags: 'utm_source=x',
      object_story_spec: { page_id: '123', link_data: { link: 'https://northwind.example/', message: 'Hi' } },
    },
  ],
  ['An id that named nothing', { creative_id: '123', nested: { a: [1, 2] }, title: 'Kept' }],
  ['No creative', null],
  ['Not an object', 'just a string'],
  ['A list', [1, 2]],
  ['Too long a title', { title: LONG_TITLE, body: 'b' }],
  ['Odd shapes', { title: 7, object_story_spec: 'text', url_tags: null }],
];

describe(`migration ${MIGRATION}`, () => {
  let database: TestDatabase;
  let adIds: string[];
  let organizationId: string;

  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
    const { db } = database;
    postgres = dialect(db) === 'postgres';
    await db.migrate.latest({ migrationSource: before });
    const world = worldBuilder({ db } as AppDeps);
    organizationId = (await world.organization()).id;
    const account = await world.adAccount(organizationId);
    const [campaign] = await world.campaigns(account, 1);
    const [adSet] = await world.adSets(campaign!, 1, () => ({ billingEvent: 'IMPRESSIONS', optimizationGoal: 'LINK_CLICKS', dailyBudget: '1000' }));
    adIds = await db.transaction(async (trx) => {
      const ids = await allocateIds(trx, 'ad', LEGACY.length);
      const now = new Date();
      await trx('ads').insert(
        LEGACY.map(([name, creative], i) => ({
          id: ids[i],
          organization_id: organizationId,
          account_id: account.id,
          campaign_id: campaign!.id,
          adset_id: adSet!.id,
          name,
          status: 'ACTIVE',
          creative: creative === null ? null : JSON.stringify(creative),
          source_ad_id: null,
          created_time: now,
          updated_time: now,
        })),
      );
      return ids;
    });
    await db.migrate.latest({ migrationSource: through });
  });
  afterAll(() => database?.dispose());

  it('gives every ad a creative of its own, in its account and organization, ACTIVE', async () => {
    const ads: Array<Record<string, unknown>> = await database.db('ads').whereIn('id', adIds).orderBy('id');
    const creativeIds = ads.map((ad) => String(ad.creative_id));
    expect(new Set(creativeIds).size).toBe(LEGACY.length);
    const creatives: Array<Record<string, unknown>> = await database.db('ad_creatives').whereIn('id', creativeIds);
    expect(creatives).toHaveLength(LEGACY.length);
    for (const creative of creatives) {
      expect(creative).toMatchObject({ organization_id: organizationId, status: 'ACTIVE' });
      expect(String(creative.account_id)).toBe(String(ads[0]!.account_id));
    }
    const types: Array<{ type: string }> = await database.db('graph_objects').whereIn('id', creativeIds).select('type');
    expect(types.every((row) => row.type === 'ad_creative')).toBe(true);
  });

  it('loses no field: the columns and extra together are the JSON the ad held', async () => {
    const rows: Array<Record<string, unknown>> = await database
      .db('ads')
      .join('ad_creatives', 'ad_creatives.id', 'ads.creative_id')
      .whereIn('ads.id', adIds)
      .orderBy('ads.id')
      .select('ads.name as ad_name', ...COLUMNS.map((column) => `ad_creatives.${column}`), 'ad_creatives.extra');
    rows.forEach((row, i) => {
      const [adName, legacy] = LEGACY[i]!;
      const columns = Object.fromEntries(COLUMNS.filter((c) => row[c] !== null).map((c) => [c, c === 'object_story_spec' ? parsed(row[c]) : row[c]]));
      const extra = (parsed(row.extra) ?? {}) as Record<string, unknown>;
      // A creative without a name is named after its ad.
      const named = typeof (legacy as { name?: unknown } | null)?.name === 'string';
      if (!named) {
        expect(columns.name).toBe(`Creative of ad ${adName}`);
        delete columns.name;
      }
      const rebuilt = { ...columns, ...extra };
      if (legacy !== null && typeof legacy === 'object' && !Array.isArray(legacy)) expect(rebuilt).toEqual(legacy);
      else if (legacy === null) expect(rebuilt).toEqual({});
      else expect(rebuilt).toEqual({ creative: legacy });
    });
  });

  it('down gives the ads back as they were, without creatives', async () => {
    const { db } = database;
    const legacyBefore: Array<Record<string, unknown>> = await db('ads').whereIn('id', adIds).orderBy('id').select('id', 'creative');
    await db.migrate.down({ migrationSource: through });
    expect(await db.schema.hasTable('ad_creatives')).toBe(false);
    expect(await db.schema.hasColumn('ads', 'creative_id')).toBe(false);
    const after: Array<Record<string, unknown>> = await db('ads').whereIn('id', adIds).orderBy('id').select('id', 'creative');
    expect(after.map((row) => parsed(row.creative))).toEqual(legacyBefore.map((row) => parsed(row.creative)));
    expect(after.map((row) => parsed(row.creative))).toEqual(LEGACY.map(([, creative]) => creative));
    // And up again: the step can be re-applied.
    await db.migrate.latest({ migrationSource: through });
    const missing: Array<{ n: unknown }> = await db('ads').whereIn('id', adIds).whereNull('creative_id').count({ n: '*' });
    expect(Number(missing[0]!.n)).toBe(0);
  });
});
