import type { RequestContext } from '../context/index.ts';
import { DEFAULT_INSIGHTS_PAGE, insightsReport, MAX_INSIGHTS_PAGE } from '../insights/service.ts';
import { DEFAULT_FIELDS, MAX_FIELDS, MAX_FILTERS, MAX_SORTS } from '../insights/rules/params.ts';
import { checkIncrement, MAX_TIME_RANGES } from '../insights/rules/windows.ts';
import { conversionsOf, costPerActionType, isNumericMetric, metricOf, printCounts, printValues, type PrintedActionStat } from '../insights/rules/metrics.ts';
import {
  ACTION_BREAKDOWNS,
  BREAKDOWNS,
  DATE_PRESETS,
  INSIGHTS_LEVELS,
  type DayRange,
  type InsightsFilter,
  type InsightsPage,
  type InsightsPageRequest,
  type InsightsQuery,
  type InsightsRow,
  type InsightsSort,
  type InsightsTarget,
} from '../insights/query.ts';
import type { FieldSelection } from './fields.ts';
import { unknownField } from './fields.ts';
import { boolean, decodeJsonText, isPlainObject, list, oneOf, optionalParam, paramError, type Params, type Reader } from './params.ts';

/**
 * Statistics on /v24.0 (`GET /<act|campaign|adset|ad>/insights`, and `insights{...}` in `fields`): the platform's
 * parameters read into an InsightsQuery, and the service's rows printed as the platform prints them. The rules
 * (which fields, presets, breakdown combinations, increments, filters and sorts are allowed, and every number)
 * are the engine's (src/insights/service.ts, rules/): this file only reads syntax and prints.
 */

const NAME = /^[a-z_][a-z0-9_.]*$/;

/**
 * A list as callers send one: a JSON array (the SDKs), or a comma list (people typing URLs, and `fields`).
 * Each element is read by `item` and an error names the parameter.
 */
const commaList =
  <T>(item: Reader<T>, max: number): Reader<T[]> =>
  (value, name) => {
    const decoded = decodeJsonText(value, name);
    if (Array.isArray(decoded)) return list(item, { max })(decoded, name);
    if (typeof decoded !== 'string') throw paramError(name, `Param ${name} must be a list (a JSON array or a comma-separated list)`);
    const items = decoded
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    if (items.length > max) throw paramError(name, `Param ${name} must have at most ${max} elements`);
    return items.map((element) => item(element, name));
  };

const fieldName: Reader<string> = (value, name) => {
  if (typeof value !== 'string' || !NAME.test(value) || value.length > 100) throw paramError(name, `Param ${name} must be a list of field names`);
  return value;
};

/** `lifetime` (disabled on the platform since v10.0) reads as `maximum`. */
export const datePreset: Reader<InsightsQuery['datePreset']> = (value, name) => (value === 'lifetime' ? 'maximum' : oneOf(DATE_PRESETS)(value, name));

/** `{since, until}` as JSON: its shape here; whether the days exist, are in order and in reach is the engine's rule. */
const dayRange: Reader<DayRange> = (value, name) => {
  const range = decodeJsonText(value, name);
  if (!isPlainObject(range) || typeof range.since !== 'string' || typeof range.until !== 'string') {
    throw paramError(name, `Param ${name} must be a JSON object {"since":"YYYY-MM-DD","until":"YYYY-MM-DD"}`);
  }
  return { since: range.since, until: range.until };
};

const filter: Reader<InsightsFilter> = (value, name) => {
  if (!isPlainObject(value) || typeof value.field !== 'string' || typeof value.operator !== 'string' || !('value' in value)) {
    throw paramError(name, `Param ${name} must be a JSON array of {"field", "operator", "value"} objects`);
  }
  return { field: value.field, operator: value.operator, value: value.value };
};

/** `spend_descending`, `impressions_ascending`: which fields sort is the engine's rule. */
const sortKey: Reader<InsightsSort> = (value, name) => {
  const match = typeof value === 'string' ? /^([a-z_.]+?)_(ascending|descending)$/.exec(value) : null;
  if (!match) throw paramError(name, `Param ${name} must be a list of <field>_ascending or <field>_descending`);
  return { field: match[1]!, direction: match[2] as InsightsSort['direction'] };
};

const pageLimit: Reader<number> = (value, name) => {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,4}$/.test(text) || Number(text) < 1 || Number(text) > MAX_INSIGHTS_PAGE) {
    throw paramError(name, `Param ${name} must be an integer between 1 and ${MAX_INSIGHTS_PAGE}`);
  }
  return Number(text);
};

const cursor: Reader<string> = (value, name) => {
  if (typeof value !== 'string' || value.length > 1000) throw paramError(name, `Param ${name} must be a cursor returned by this API`);
  return value;
};

export interface InsightsCall {
  query: InsightsQuery;
  page: InsightsPageRequest;
  /** The fields of the summary, when one is asked for. */
  summaryFields?: string[];
}

/**
 * The platform's parameters of a report, each read into the query as sent (which of date_preset, time_range and
 * time_ranges wins is the engine's rule, rules/windows.ts).
 */
export function readInsightsParams(params: Params): InsightsCall {
  const fields = optionalParam(params, 'fields', commaList(fieldName, MAX_FIELDS)) ?? DEFAULT_FIELDS;
  const query: InsightsQuery = {
    fields,
    level: optionalParam(params, 'level', oneOf(INSIGHTS_LEVELS)),
    datePreset: optionalParam(params, 'date_preset', datePreset),
    timeRange: optionalParam(params, 'time_range', dayRange),
    timeRanges: optionalParam(params, 'time_ranges', list(dayRange, { max: MAX_TIME_RANGES, min: 1 })),
    timeIncrement: optionalParam(params, 'time_increment', checkIncrement),
    breakdowns: optionalParam(params, 'breakdowns', commaList(oneOf(BREAKDOWNS), BREAKDOWNS.length)) ?? [],
    actionBreakdowns: optionalParam(params, 'action_breakdowns', commaList(oneOf(ACTION_BREAKDOWNS), ACTION_BREAKDOWNS.length)) ?? [],
    filtering: optionalParam(params, 'filtering', list(filter, { max: MAX_FILTERS })) ?? [],
    sort: optionalParam(params, 'sort', commaList(sortKey, MAX_SORTS)) ?? [],
  };
  const after = optionalParam(params, 'after', cursor);
  const before = optionalParam(params, 'before', cursor);
  if (after !== undefined && before !== undefined) throw paramError('before', 'Use after or before, not both');
  const page: InsightsPageRequest = { limit: optionalParam(params, 'limit', pageLimit) ?? DEFAULT_INSIGHTS_PAGE, after, before };
  // summary (its own fields) wins over default_summary (the report's fields), as on the platform.
  const summary = params.summary === 'true' || params.summary === true ? fields : optionalParam(params, 'summary', commaList(fieldName, MAX_FIELDS));
  const summaryFields = summary ?? (optionalParam(params, 'default_summary', boolean) ? fields : undefined);
  return { query, page, summaryFields };
}

// --- Printing -------------------------------------------------------------------------------------------------

/** The labels of a row, by the platform's field names. */
const LABELS: Record<string, (row: InsightsRow) => string | undefined> = {
  account_id: (row) => row.accountId,
  account_name: (row) => row.accountName,
  account_currency: (row) => row.accountCurrency,
  campaign_id: (row) => row.campaignId,
  campaign_name: (row) => row.campaignName,
  adset_id: (row) => row.adsetId,
  adset_name: (row) => row.adsetName,
  ad_id: (row) => row.adId,
  ad_name: (row) => row.adName,
  objective: (row) => row.objective,
  optimization_goal: (row) => row.optimizationGoal,
};

/** The lists of a row: [{action_type, value}], counts as strings, money in major units. */
const LISTS: Record<string, (row: InsightsRow) => PrintedActionStat[]> = {
  actions: (row) => printCounts(row.actions),
  action_values: (row) => printValues(row.actionValues, row.accountCurrency),
  cost_per_action_type: (row) => costPerActionType(row),
  conversions: (row) => printCounts(conversionsOf(row.actions)),
};

/** A field of a row as /v24.0 prints it; undefined where the platform leaves it out (a ratio over 0, an empty list). */
function printedField(row: InsightsRow, field: string): unknown {
  if (isNumericMetric(field)) return metricOf(row, field)?.printed;
  const list = LISTS[field]?.(row);
  if (list) return list.length > 0 ? list : undefined;
  return LABELS[field]?.(row);
}

/**
 * One row as the platform prints it: the fields asked for (a value the platform leaves out, such as a ratio
 * over zero, is left out), the breakdown values under the breakdowns' names, then date_start and date_stop.
 */
export function insightsRowJson(
  row: InsightsRow,
  fields: readonly string[],
  options: { breakdowns?: boolean } = { breakdowns: true },
): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  for (const field of fields) {
    const value = printedField(row, field);
    if (value !== undefined) json[field] = value;
  }
  if (options.breakdowns !== false) {
    for (const [breakdown, value] of Object.entries(row.breakdownValues)) if (value !== undefined) json[breakdown] = value;
  }
  json.date_start = row.dateStart;
  json.date_stop = row.dateStop;
  return json;
}

export interface InsightsBody {
  data: Array<Record<string, unknown>>;
  paging?: { cursors: { before: string; after: string }; next?: string; previous?: string };
  summary?: Record<string, unknown>;
}

/** A page as an edge prints: data, paging with cursors (and the links `link` builds), and the summary if asked. */
export function insightsBody(page: InsightsPage, call: InsightsCall, link?: (direction: 'after' | 'before', cursor: string) => string): InsightsBody {
  const body: InsightsBody = { data: page.rows.map((row) => insightsRowJson(row, call.query.fields)) };
  if (page.before !== undefined && page.after !== undefined && page.rows.length > 0) {
    body.paging = { cursors: { before: page.before, after: page.after } };
    if (link && page.hasNext) body.paging.next = link('after', page.after);
    if (link && page.hasPrevious) body.paging.previous = link('before', page.before);
  }
  if (call.summaryFields && page.summary) body.summary = insightsRowJson(page.summary, call.summaryFields, { breakdowns: false });
  return body;
}

const TARGET_KINDS: Record<string, InsightsTarget['kind'] | undefined> = { AdAccount: 'account', Campaign: 'campaign', AdSet: 'adset', Ad: 'ad' };

/** Whether objects of this node type have statistics. */
export const hasInsights = (nodeName: string) => TARGET_KINDS[nodeName] !== undefined;

/** The report's own object: its node type and record, as the dispatcher holds them. */
export function insightsTargetOf(nodeName: string, record: unknown): InsightsTarget | undefined {
  const kind = TARGET_KINDS[nodeName];
  return kind ? { kind, id: (record as { id: string }).id } : undefined;
}

/** `GET /<object>/insights`. */
export async function readInsights(
  ctx: RequestContext,
  target: InsightsTarget,
  params: Params,
  link: (direction: 'after' | 'before', cursor: string) => string,
): Promise<InsightsBody> {
  const call = readInsightsParams(params);
  const page = await insightsReport(ctx, target, { ...call.query, fields: withSummaryFields(call) }, call.page, { summary: call.summaryFields !== undefined });
  return insightsBody(page, call, link);
}

/** The engine computes what the rows and the summary print. */
const withSummaryFields = (call: InsightsCall) => [...new Set([...call.query.fields, ...(call.summaryFields ?? [])])];

/** The reporting window of an object read (`date_preset`, `time_range`), which scopes its `insights{...}`. */
export interface ReportingWindow {
  datePreset?: string;
  timeRange?: DayRange;
}

/**
 * `insights.date_preset(last_7d).breakdowns(age){spend,cpc}` in `fields`: the modifiers are the edge's parameters;
 * without a window of its own, the read's date_preset or time_range scopes it. Left out when there is no row,
 * as the platform leaves it out.
 */
export async function expandInsights(
  ctx: RequestContext,
  target: InsightsTarget,
  selection: FieldSelection,
  window: ReportingWindow,
): Promise<InsightsBody | undefined> {
  for (const child of selection.children ?? []) if (child.children) throw unknownField(`${child.name}{...}`, 'AdsInsights');
  const own = ['date_preset', 'time_range', 'time_ranges'].some((name) => selection.modifiers[name] !== undefined);
  const params: Params = {
    ...(own ? {} : { date_preset: window.datePreset, time_range: window.timeRange }),
    ...selection.modifiers,
    ...(selection.children ? { fields: selection.children.map((child) => child.name).join(',') } : {}),
  };
  const call = readInsightsParams(params);
  const page = await insightsReport(ctx, target, { ...call.query, fields: withSummaryFields(call) }, call.page, { summary: call.summaryFields !== undefined });
  return page.rows.length > 0 ? insightsBody(page, call) : undefined;
}
