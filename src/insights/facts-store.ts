import type { Knex } from 'knex';
import { runBulkStatement } from '../db/bulk.ts';
import { dialect } from '../db/index.ts';
import { lockRow } from '../db/locks.ts';
import type { ReachSketch } from './sketch.ts';
import { addFact, type Fact } from './intake/aggregate.ts';

/**
 * Writing facts (insight_facts, see its migration). Facts are added, never replaced: counts and money summed,
 * actions added key by key, sketches merged. Sketches cannot be merged in SQL on both databases, so a batch
 * reads the rows it touches, merges in memory and writes them back with one multi-row upsert; the accounts'
 * rows are locked first, so two imports touching the same account add one after the other and neither's
 * additions are lost.
 */

const KEY_COLUMNS = ['level', 'object_id', 'day', 'family', 'age', 'gender', 'country', 'publisher_platform', 'platform_position', 'device_platform'] as const;
const COLUMNS = [
  ...KEY_COLUMNS,
  'account_id',
  'campaign_id',
  'adset_id',
  'ad_id',
  'impressions',
  'clicks',
  'inline_link_clicks',
  'spend',
  'actions',
  'action_values',
  'reach_sketch',
  'clicker_sketch',
] as const;
const VALUE_COLUMNS = COLUMNS.slice(KEY_COLUMNS.length + 4);

/** Rows per statement: 22 bindings each stay far below both databases' limits. */
const BATCH = 500;

const CONFLICT = `on conflict (${['level', 'object_id', 'family', 'day', 'age', 'gender', 'country', 'publisher_platform', 'platform_position', 'device_platform'].join(', ')}) do update set ${VALUE_COLUMNS.map((column) => `${column} = excluded.${column}`).join(', ')}`;

/** SQLite: one multi-row VALUES, 22 bindings a row. */
const upsertSql = (rows: number) =>
  `insert into insight_facts (${COLUMNS.join(', ')}) values ${Array.from({ length: rows }, () => `(${COLUMNS.map(() => '?').join(', ')})`).join(', ')} ${CONFLICT}`;
const fullBatchSql = upsertSql(BATCH);

/** The PostgreSQL type of each column, for its array in the statement below. */
const POSTGRES_TYPES: Record<(typeof COLUMNS)[number], string> = {
  level: 'varchar',
  object_id: 'bigint',
  day: 'varchar',
  family: 'varchar',
  age: 'varchar',
  gender: 'varchar',
  country: 'varchar',
  publisher_platform: 'varchar',
  platform_position: 'varchar',
  device_platform: 'varchar',
  account_id: 'bigint',
  campaign_id: 'bigint',
  adset_id: 'bigint',
  ad_id: 'bigint',
  impressions: 'bigint',
  clicks: 'bigint',
  inline_link_clicks: 'bigint',
  spend: 'bigint',
  actions: 'jsonb',
  action_values: 'jsonb',
  // Sent as hex text and decoded by PostgreSQL: node-postgres escapes a Buffer inside an array byte by byte.
  reach_sketch: 'text',
  clicker_sketch: 'text',
};
const SKETCH_COLUMNS = new Set(['reach_sketch', 'clicker_sketch']);
/**
 * PostgreSQL: an array per column, unnested into rows. One short statement of 22 bindings whatever the batch,
 * which PostgreSQL parses and plans in a fraction of what a VALUES list of 11,000 placeholders takes.
 */
const postgresUpsertSql =
  `insert into insight_facts (${COLUMNS.join(', ')}) ` +
  `select ${COLUMNS.map((column) => (SKETCH_COLUMNS.has(column) ? `decode(${column}, 'hex')` : column)).join(', ')} ` +
  `from unnest(${COLUMNS.map((column) => `?::${POSTGRES_TYPES[column]}[]`).join(', ')}) as batch (${COLUMNS.join(', ')}) ${CONFLICT}`;

function keyOf(level: string, objectId: string, day: string, family: string, values: string[]): string {
  return [level, objectId, day, family, ...values].join('\u0001');
}

const factKey = (fact: Fact) =>
  keyOf(fact.level, fact.objectId, fact.day, fact.family, [
    fact.age,
    fact.gender,
    fact.country,
    fact.publisherPlatform,
    fact.platformPosition,
    fact.devicePlatform,
  ]);

const json = (value: unknown): Record<string, number> => (typeof value === 'string' ? JSON.parse(value) : (value as Record<string, number>));

function addCounts(into: Record<string, number>, stored: unknown): void {
  const from = json(stored);
  for (const key in from) into[key] = (into[key] ?? 0) + from[key]!;
}

/** Merges a stored sketch into a fact's (unknown on either side: unknown). */
function addStoredPeople(sketch: ReachSketch | null, stored: unknown): ReachSketch | null {
  if (sketch === null || stored === null || stored === undefined) return null;
  sketch.mergeSerialized(stored as Uint8Array);
  return sketch;
}

/** Adds a stored row to a fact of the same key (which is then written back in its place). */
function addStoredRow(fact: Fact, row: Record<string, unknown>): void {
  fact.impressions += Number(row.impressions);
  fact.clicks += Number(row.clicks);
  fact.inlineLinkClicks += Number(row.inline_link_clicks);
  fact.spend += Number(row.spend);
  addCounts(fact.actions, row.actions);
  addCounts(fact.actionValues, row.action_values);
  fact.reach = addStoredPeople(fact.reach, row.reach_sketch);
  fact.clickers = addStoredPeople(fact.clickers, row.clicker_sketch);
}

type Binding = string | number | Buffer | null;

const hex = (value: Binding): Binding => (value instanceof Buffer ? value.toString('hex') : value);

/** The batch's rows as one array per column, for postgresUpsertSql (sketches as hex). */
const columnsOf = (rows: Binding[][]): Binding[][] =>
  COLUMNS.map((name, column) => (SKETCH_COLUMNS.has(name) ? rows.map((row) => hex(row[column]!)) : rows.map((row) => row[column]!)));

function bindingsOf(fact: Fact): Binding[] {
  return [
    fact.level,
    fact.objectId,
    fact.day,
    fact.family,
    fact.age,
    fact.gender,
    fact.country,
    fact.publisherPlatform,
    fact.platformPosition,
    fact.devicePlatform,
    fact.accountId,
    fact.campaignId,
    fact.adsetId,
    fact.adId,
    fact.impressions,
    fact.clicks,
    fact.inlineLinkClicks,
    fact.spend,
    JSON.stringify(fact.actions),
    JSON.stringify(fact.actionValues),
    fact.reach?.serialize() ?? null,
    fact.clickers?.serialize() ?? null,
  ];
}

/** The stored rows of these facts' objects, families and days (a prefix of the unique key's index), by fact key. */
async function storedRows(trx: Knex.Transaction, facts: Fact[]): Promise<Map<string, Record<string, unknown>>> {
  const prefixes = new Map<string, [string, string, string, string]>();
  for (const fact of facts) prefixes.set(`${fact.level}:${fact.objectId}:${fact.family}:${fact.day}`, [fact.level, fact.objectId, fact.family, fact.day]);
  const keys = [...prefixes.values()];
  const rows: Array<Record<string, unknown>> =
    dialect(trx) === 'postgres'
      ? // The prefixes as four arrays joined through the key's index: a list of row values would be planned as
        // hundreds of OR'd conditions, which took longer than reading the rows.
        (
          await trx.raw(
            `select facts.* from unnest(?::varchar[], ?::bigint[], ?::varchar[], ?::varchar[]) as wanted (level, object_id, family, day) ` +
              `join insight_facts facts using (level, object_id, family, day)`,
            [0, 1, 2, 3].map((part) => keys.map((key) => key[part]!)),
          )
        ).rows
      : await trx('insight_facts').whereIn(['level', 'object_id', 'family', 'day'], keys);
  const stored = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    const values = [row.age, row.gender, row.country, row.publisher_platform, row.platform_position, row.device_platform] as string[];
    stored.set(keyOf(row.level as string, String(row.object_id), row.day as string, row.family as string, values), row);
  }
  return stored;
}

/**
 * Adds facts (as FactsAggregator.drain gives them: ad level and rollups) to insight_facts, in the caller's
 * transaction; the facts are consumed (what is stored is added into them before they are written). Returns how
 * many rows were written (inserted or added to).
 */
export async function addFacts(trx: Knex.Transaction, given: Fact[]): Promise<number> {
  // One row per key (a statement may not upsert the same row twice).
  const byKey = new Map<string, Fact>();
  for (const fact of given) {
    const key = factKey(fact);
    const same = byKey.get(key);
    if (same) addFact(same, fact);
    else byKey.set(key, fact);
  }
  const facts = [...byKey.values()];
  const accounts = [...new Set(facts.map((fact) => fact.accountId))].sort();
  // In id order, so two imports touching the same accounts cannot deadlock.
  for (const account of accounts) await lockRow(trx, trx, 'ad_accounts', account);
  const postgres = dialect(trx) === 'postgres';
  for (let start = 0; start < facts.length; start += BATCH) {
    const batch = facts.slice(start, start + BATCH);
    const stored = await storedRows(trx, batch);
    const rows: Binding[][] = [];
    for (const fact of batch) {
      const existing = stored.get(factKey(fact));
      if (existing) addStoredRow(fact, existing);
      rows.push(bindingsOf(fact));
    }
    if (postgres) await runBulkStatement(trx, postgresUpsertSql, columnsOf(rows));
    else await runBulkStatement(trx, batch.length === BATCH ? fullBatchSql : upsertSql(batch.length), rows.flat());
  }
  return facts.length;
}
