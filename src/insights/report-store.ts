import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';
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
  /** Read the sketches too (reach, frequency, unique clicks, ...). */
  sketches: boolean;
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

function scoped(db: Db, scope: FactScope, days: readonly DayRange[] = scope.ranges): Knex.QueryBuilder {
  const query = db('insight_facts').where({ account_id: scope.accountId, level: scope.readLevel, family: scope.family });
  if (scope.target.level !== 'account') query.where(columnOf(scope, scope.target.level), scope.target.id);
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
const json = (value: unknown): Record<string, number> =>
  typeof value === 'string' ? (JSON.parse(value) as Record<string, number>) : ((value ?? {}) as Record<string, number>);
const bytes = (value: unknown): Uint8Array | null => (value === null || value === undefined ? null : (value as Uint8Array));

function toFact(scope: FactScope, breakdowns: readonly Breakdown[], row: Record<string, unknown>): FactRow {
  const rank = LEVEL_RANK[scope.level];
  const idAt = (level: InsightsLevel) => (LEVEL_RANK[level] <= rank ? nullableId(row[columnOf(scope, level)]) : null);
  const breakdownValues: Partial<Record<Breakdown, string>> = {};
  for (const breakdown of breakdowns) breakdownValues[breakdown] = row[breakdown] as string;
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
  };
}

function selectFacts(query: Knex.QueryBuilder, scope: FactScope): Knex.QueryBuilder {
  const breakdowns = BREAKDOWN_FAMILIES[scope.family] as readonly string[];
  const ancestors = (['campaign', 'adset', 'ad'] as const)
    .filter((level) => LEVEL_RANK[level] <= LEVEL_RANK[scope.level])
    .map((level) => columnOf(scope, level));
  return query.select(
    `${groupColumn(scope)} as report_group`,
    ...new Set(ancestors),
    'day',
    ...breakdowns,
    'impressions',
    'clicks',
    'inline_link_clicks',
    'spend',
    'actions',
    'action_values',
    ...(scope.sketches ? ['reach_sketch', 'clicker_sketch'] : []),
  );
}

/** Every fact of the scope (a whole result: reports sorted by a metric, filtered on one, or summarised). */
export async function allFacts(db: Db, scope: FactScope): Promise<FactRow[]> {
  const rows = (await selectFacts(scoped(db, scope), scope)) as Array<Record<string, unknown>>;
  const family = BREAKDOWN_FAMILIES[scope.family];
  return rows.map((row) => toFact(scope, family, row));
}

/** The facts of some report-level objects, optionally from a day on (the rest of an object a page stopped within). */
export async function factsOfGroups(db: Db, scope: FactScope, groups: readonly string[], fromDay?: string): Promise<FactRow[]> {
  if (groups.length === 0) return [];
  const days = fromDay
    ? scope.ranges.filter((r) => r.until >= fromDay).map((r) => ({ since: r.since < fromDay ? fromDay : r.since, until: r.until }))
    : scope.ranges;
  if (days.length === 0) return [];
  const query = scoped(db, scope, days).whereIn(groupColumn(scope), groups as string[]);
  const rows = (await selectFacts(query, scope)) as Array<Record<string, unknown>>;
  const family = BREAKDOWN_FAMILIES[scope.family];
  return rows.map((row) => toFact(scope, family, row));
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
  const scope: FactScope = { accountId, target, level: target.level, readLevel: target.level, family: '', ranges, objectFilters: [], sketches };
  return allFacts(db, scope);
}
