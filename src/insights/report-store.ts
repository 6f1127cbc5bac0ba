import type { Knex } from 'knex';
import { dialect, type Db } from '../db/index.ts';
import { statusFilters } from '../ads/edges.ts';
import type { Breakdown, DayRange, InsightsLevel } from './query.ts';
import { BREAKDOWN_FAMILIES, type BreakdownFamily } from './rules/breakdowns.ts';
import type { ObjectFilter } from './rules/params.ts';
import { LEVEL_RANK } from './rules/params.ts';
import type { FactRow } from './rules/accumulate.ts';

/**
 * Reads of insight_facts for reports (SQL only; the service decides what the caller may see and the rules sum).
 *
 * Cost follows the rows a report returns times the days it covers: facts are kept at every level, so a report
 * reads the facts of its own level (an account's report its account rows, never its ads'), and a report at a
 * lower level walks its objects in id order, a page at a time (index insight_facts_account_objects). Filters on
 * a finer level (campaign rows of only some ads) read that level's facts and sum them up to the report's level.
 */

/** The column holding each level's object id in a fact row of a finer (or the same) level. */
const ANCESTOR_COLUMN: Record<InsightsLevel, string> = { account: 'account_id', campaign: 'campaign_id', adset: 'adset_id', ad: 'ad_id' };
const STATUS_TABLE = { campaign: 'campaigns', adset: 'ad_sets', ad: 'ads' } as const;

export interface FactScope {
  accountId: string;
  /** The target object and its level: the account, or a campaign, ad set or ad of it. */
  target: { level: InsightsLevel; id: string };
  /** The level of the report's rows. */
  level: InsightsLevel;
  /** The level of the facts read: the report's level, or a finer one that a filter names. */
  readLevel: InsightsLevel;
  family: BreakdownFamily;
  /** Days read (their union). */
  ranges: readonly DayRange[];
  objectFilters: readonly ObjectFilter[];
  /**
   * Read the sketches too (reach, frequency, unique clicks, ...): then every fact comes back as stored. Without
   * them the database sums (by the breakdowns asked and the buckets below).
   */
  sketches: boolean;
  /** The breakdowns asked for (the family's other columns are summed over). */
  breakdowns: readonly Breakdown[];
  /** Consecutive buckets the database may sum days into; null: it sums by day (overlapping time ranges, daily). */
  sumBuckets: readonly DayRange[] | null;
  /** Sum the actions (and their values) too. */
  actions: boolean;
  actionValues: boolean;
}

/** The column of a fact of the scope's read level that names the object at `level`. */
const columnOf = (scope: FactScope, level: InsightsLevel) => (level === scope.readLevel ? 'object_id' : ANCESTOR_COLUMN[level]);
export const groupColumn = (scope: FactScope) => columnOf(scope, scope.level);

/** Overlapping or touching ranges merged, so each day is read once. */
function mergedRanges(ranges: readonly DayRange[]): DayRange[] {
  const sorted = [...ranges].sort((a, b) => (a.since < b.since ? -1 : 1));
  const merged: DayRange[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range.since <= last.until) last.until = range.until > last.until ? range.until : last.until;
    else merged.push({ ...range });
  }
  return merged;
}

/**
 * The scope's facts. `inObjectOrder` reads them by the (account, level, family, object, day) index: SQLite, without
 * statistics, prefers the window index for a range of days and would group a whole window before a page's LIMIT.
 */
function scoped(db: Db, scope: FactScope, days: readonly DayRange[] = scope.ranges, inObjectOrder = false): Knex.QueryBuilder {
  const table: Knex.QueryBuilder =
    inObjectOrder && dialect(db) === 'sqlite' ? db.from(db.raw('?? indexed by ??', ['insight_facts', 'insight_facts_account_objects'])) : db('insight_facts');
  const query = table.where({ account_id: scope.accountId, level: scope.readLevel, family: scope.family });
  if (scope.target.level !== 'account') query.where(columnOf(scope, scope.target.level), scope.target.id);
  if (scope.target.level !== 'account' && scope.target.level !== scope.readLevel) {
    // The same objects again, by their ids: the facts' index leads with the account, so without this a campaign's
    // report by ad would walk every ad of the account; the children's own (parent, id) index lists just its own.
    const table = STATUS_TABLE[scope.readLevel as Exclude<InsightsLevel, 'account'>];
    query.whereIn('object_id', db(table).select('id').where(ANCESTOR_COLUMN[scope.target.level], scope.target.id));
  }
  const ranges = mergedRanges(days);
  query.where((inner) => {
    for (const range of ranges) inner.orWhereBetween('day', [range.since, range.until]);
  });
  for (const filter of scope.objectFilters) {
    const column = columnOf(scope, filter.level);
    if (filter.kind === 'id') {
      if (filter.exclude) query.whereNotIn(column, filter.values);
      else query.whereIn(column, filter.values);
      continue;
    }
    // Effective status is a rule over the object's and its parents' statuses: the same SQL the edges filter by.
    const table = STATUS_TABLE[filter.level];
    const condition = statusFilters(table, { effectiveStatus: filter.values }).effective_status as { sql: string; bindings: unknown[] };
    const ids = db(table)
      .select(`${table}.id`)
      .where(`${table}.account_id`, scope.accountId)
      .whereRaw(`(${condition.sql})`, condition.bindings as never[]);
    if (filter.exclude) query.whereNotIn(column, ids);
    else query.whereIn(column, ids);
  }
  return query;
}

const nullableId = (value: unknown) => (value === null || value === undefined ? null : String(value));
const NO_ACTIONS: Record<string, number> = Object.freeze({}) as Record<string, number>;
// Most facts have no actions (SQLite returns the text '{}'): no parse for them.
const json = (value: unknown): Record<string, number> =>
  typeof value === 'string' ? (value === '{}' ? NO_ACTIONS : (JSON.parse(value) as Record<string, number>)) : ((value ?? NO_ACTIONS) as Record<string, number>);
const bytes = (value: unknown): Uint8Array | null => (value === null || value === undefined ? null : (value as Uint8Array));

function toFact(scope: FactScope, breakdowns: readonly string[], row: Record<string, unknown>): FactRow {
  const rank = LEVEL_RANK[scope.level];
  const idAt = (level: InsightsLevel) => (LEVEL_RANK[level] <= rank ? nullableId(row[columnOf(scope, level)]) : null);
  const breakdownValues: Partial<Record<Breakdown, string>> = {};
  for (const breakdown of breakdowns) breakdownValues[breakdown as Breakdown] = row[breakdown] as string;
  return {
    group: String(row.report_group),
    campaignId: idAt('campaign'),
    adsetId: idAt('adset'),
    adId: idAt('ad'),
    day: String(row.day),
    breakdownValues,
    impressions: Number(row.impressions),
    clicks: Number(row.clicks),
    inlineLinkClicks: Number(row.inline_link_clicks),
    spend: Number(row.spend),
    actions: json(row.actions),
    actionValues: json(row.action_values),
    reachSketch: bytes(row.reach_sketch),
    clickerSketch: bytes(row.clicker_sketch),
    ...(row.has_actions === undefined ? {} : { hasActions: Number(row.has_actions) === 1 }),
  };
}

/** The columns naming the report row's object and its ancestors (one per level down to the report's). */
const ancestorColumns = (scope: FactScope) => [
  ...new Set((['campaign', 'adset', 'ad'] as const).filter((level) => LEVEL_RANK[level] <= LEVEL_RANK[scope.level]).map((level) => columnOf(scope, level))),
];

/** Each fact as stored (the sketches' path: people merge in JS, so every row comes back). */
async function storedFacts(query: Knex.QueryBuilder, scope: FactScope): Promise<FactRow[]> {
  const family = BREAKDOWN_FAMILIES[scope.family] as readonly string[];
  const rows = (await query.select(
    `${groupColumn(scope)} as report_group`,
    ...ancestorColumns(scope),
    'day',
    ...family,
    'impressions',
    'clicks',
    'inline_link_clicks',
    'spend',
    'actions',
    'action_values',
    ...(scope.sketches ? ['reach_sketch', 'clicker_sketch'] : []),
  )) as Array<Record<string, unknown>>;
  return rows.map((row) => toFact(scope, family, row));
}

/** A day's bucket as SQL: its first day (consecutive buckets, `case when day <= until then since ...`), or the day. */
function dayKey(buckets: readonly DayRange[] | null): { sql: string; bindings: string[] } {
  if (!buckets) return { sql: 'day', bindings: [] };
  return { sql: `case ${buckets.map(() => 'when day <= ? then ?').join(' ')} end`, bindings: buckets.flatMap((b) => [b.until, b.since]) };
}

/** Each action type of a JSON column as rows (key, value): SQLite's json_each, PostgreSQL's jsonb_each_text. */
const eachAction = (db: Db, column: 'actions' | 'action_values') =>
  dialect(db) === 'postgres' ? db.raw(`jsonb_each_text(insight_facts.${column}) as je(key, value)`) : db.raw(`json_each(insight_facts.${column}) as je`);

/**
 * Facts summed by the database (no sketches asked): one row per report object, bucket and breakdown values asked,
 * so a 30-day report by ad moves one row per ad, not thirty. Actions are summed type by type in a second statement
 * (a third for their values), only when asked; whether a row had any action is kept, so the rows a report has do
 * not depend on the fields asked.
 */
async function summedFacts(db: Db, base: () => Knex.QueryBuilder, scope: FactScope): Promise<FactRow[]> {
  const breakdowns = scope.breakdowns as readonly string[];
  const key = dayKey(scope.sumBuckets);
  const ancestors = ancestorColumns(scope);
  // day_key, not day: in GROUP BY an input column's name wins over an output alias (PostgreSQL).
  const grouping = ['report_group', ...ancestors.filter((c) => c !== groupColumn(scope)), 'day_key', ...breakdowns].join(', ');
  const rows = (await base()
    .select(
      db.raw(`${groupColumn(scope)} as report_group`),
      ...ancestors.filter((c) => c !== groupColumn(scope)),
      db.raw(`${key.sql} as day_key`, key.bindings),
      ...breakdowns,
    )
    .select(
      db.raw('sum(impressions) as impressions, sum(clicks) as clicks, sum(inline_link_clicks) as inline_link_clicks, sum(spend) as spend'),
      db.raw('max(case when actions <> ? then 1 else 0 end) as has_actions', ['{}']),
    )
    .groupByRaw(grouping)) as Array<Record<string, unknown>>;
  const facts = rows.map((row) => toFact(scope, breakdowns, { ...row, [groupColumn(scope)]: row.report_group, day: row.day_key }));
  await addActions(db, base, scope, facts);
  return facts;
}

/**
 * The actions (and their values) of summed facts, type by type, when asked: one statement each, grouped as the
 * facts were (object, bucket or day, breakdown values); groups not among the facts find none to join.
 */
async function addActions(db: Db, base: () => Knex.QueryBuilder, scope: FactScope, facts: FactRow[]): Promise<void> {
  const breakdowns = scope.breakdowns as readonly string[];
  const key = dayKey(scope.sumBuckets);
  const keyOf = (parts: unknown[]) => parts.join('\u0000');
  const byKey = new Map(facts.map((fact) => [keyOf([fact.group, fact.day, ...breakdowns.map((b) => fact.breakdownValues[b as Breakdown])]), fact]));
  const columns = [...(scope.actions ? (['actions'] as const) : []), ...(scope.actionValues ? (['action_values'] as const) : [])];
  for (const column of columns) {
    if (facts.length === 0) break;
    const amount = dialect(db) === 'postgres' ? 'sum(je.value::bigint)' : 'sum(je.value)';
    const typed = (await base()
      .crossJoin(eachAction(db, column) as never)
      .select(
        db.raw(`${groupColumn(scope)} as report_group`),
        db.raw(`${key.sql} as day_key`, key.bindings),
        ...breakdowns,
        db.raw(`je.key as action_type, ${amount} as amount`),
      )
      .groupByRaw(['report_group', 'day_key', ...breakdowns, 'je.key'].join(', '))) as Array<Record<string, unknown>>;
    for (const row of typed) {
      const fact = byKey.get(keyOf([row.report_group, row.day_key, ...breakdowns.map((b) => row[b])]));
      if (!fact) continue;
      const into = column === 'actions' ? 'actions' : 'actionValues';
      if (fact[into] === NO_ACTIONS) fact[into] = {};
      fact[into][String(row.action_type)] = Number(row.amount);
    }
  }
}

/**
 * The next rows of a report whose rows are its own objects' totals over one range (`range`), or their days (null),
 * without breakdowns or people: summed by the database in the order of the facts' index (account, level, family,
 * object, day), so it aggregates as it reads and stops after `limit` rows. A page is one statement (and one per
 * kind of actions asked), whatever the size of the account.
 */
export async function streamedRows(
  db: Db,
  scope: FactScope,
  after: string | undefined,
  limit: number,
  backward: boolean,
  range: DayRange | null,
): Promise<FactRow[]> {
  const base = () => {
    const query = scoped(db, scope, scope.ranges, true);
    return after === undefined ? query : query.where('object_id', backward ? '<' : '>', after);
  };
  const ancestors = ancestorColumns(scope).filter((column) => column !== 'object_id');
  const direction = backward ? 'desc' : 'asc';
  const rows = (await base()
    .select(db.raw('object_id as report_group'), ...ancestors.map((column) => db.raw(`max(${column}) as ${column}`)), ...(range ? [] : ['day']))
    .select(
      db.raw('sum(impressions) as impressions, sum(clicks) as clicks, sum(inline_link_clicks) as inline_link_clicks, sum(spend) as spend'),
      db.raw('max(case when actions <> ? then 1 else 0 end) as has_actions', ['{}']),
    )
    .groupByRaw(range ? 'object_id' : 'object_id, day')
    // A day or object without delivery has no row, so the page's LIMIT counts only rows the report shows.
    .havingRaw('sum(impressions) > 0 or sum(clicks) > 0 or sum(spend) > 0 or max(case when actions <> ? then 1 else 0 end) = 1', ['{}'])
    .orderByRaw(range ? `object_id ${direction}` : `object_id ${direction}, day ${direction}`)
    .limit(limit)) as Array<Record<string, unknown>>;
  const facts = rows.map((row) => toFact(scope, [], { ...row, object_id: row.report_group, day: range ? range.since : row.day }));
  await addActions(db, () => base().whereIn('object_id', [...new Set(facts.map((fact) => fact.group))]), scope, facts);
  return facts;
}

const readBy = (db: Db, scope: FactScope, base: () => Knex.QueryBuilder) => (scope.sketches ? storedFacts(base(), scope) : summedFacts(db, base, scope));

/** Every fact of the scope (a whole result: reports sorted by a metric, filtered on one, or summarised). */
export function allFacts(db: Db, scope: FactScope): Promise<FactRow[]> {
  return readBy(db, scope, () => scoped(db, scope));
}

/** The facts of some report-level objects, optionally from a day on (the rest of an object a page stopped within). */
export async function factsOfGroups(db: Db, scope: FactScope, groups: readonly string[], fromDay?: string): Promise<FactRow[]> {
  if (groups.length === 0) return [];
  const days = fromDay
    ? scope.ranges.filter((r) => r.until >= fromDay).map((r) => ({ since: r.since < fromDay ? fromDay : r.since, until: r.until }))
    : scope.ranges;
  if (days.length === 0) return [];
  return readBy(db, scope, () => scoped(db, scope, days).whereIn(groupColumn(scope), groups as string[]));
}

/** The next report-level objects with facts in the scope, in id order (descending when walking backward). */
export async function nextGroups(db: Db, scope: FactScope, after: string | undefined, limit: number, backward: boolean): Promise<string[]> {
  const column = groupColumn(scope);
  const query = scoped(db, scope)
    .distinct(column)
    .orderBy(column, backward ? 'desc' : 'asc')
    .limit(limit);
  if (after !== undefined) query.where(column, backward ? '<' : '>', after);
  const rows = (await query) as Array<Record<string, unknown>>;
  return rows.map((row) => String(row[column]));
}

/** The account's first and last day with data (its own rollup rows), or null when it has none. */
export async function dataSpan(db: Db, accountId: string): Promise<DayRange | null> {
  const row = (await db('insight_facts').where({ level: 'account', object_id: accountId, family: '' }).min({ since: 'day' }).max({ until: 'day' }).first()) as
    { since: string | null; until: string | null } | undefined;
  return row?.since && row.until ? { since: row.since, until: row.until } : null;
}

/**
 * The totals of one object over some days, from its own rollup rows (family '': every event once): a summary
 * that needs no walk of the report's rows.
 */
export async function ownFacts(
  db: Db,
  accountId: string,
  target: { level: InsightsLevel; id: string },
  ranges: readonly DayRange[],
  sketches: boolean,
): Promise<FactRow[]> {
  const scope: FactScope = {
    accountId,
    target,
    level: target.level,
    readLevel: target.level,
    family: '',
    ranges,
    objectFilters: [],
    sketches,
    breakdowns: [],
    sumBuckets: null,
    actions: true,
    actionValues: true,
  };
  return allFacts(db, scope);
}
