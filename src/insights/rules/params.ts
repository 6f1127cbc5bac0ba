import { badInput } from '../../errors/index.ts';
import { AD_EFFECTIVE_STATUSES, AD_SET_EFFECTIVE_STATUSES, CAMPAIGN_EFFECTIVE_STATUSES } from '../../ads/rules/effective-status.ts';
import {
  ACTION_BREAKDOWNS,
  INSIGHTS_LEVELS,
  type InsightsLevel,
  type InsightsQuery,
  type InsightsSort,
  type InsightsTargetKind,
  type TimeIncrement,
} from '../query.ts';
import { familyFor, type BreakdownSelection } from './breakdowns.ts';
import { isNumericMetric, NUMERIC_METRICS, type NumericMetric } from './metrics.ts';
import { checkIncrement } from './windows.ts';

/**
 * An InsightsQuery checked once, whichever surface read it: every error is 100 naming the parameter (`fields`,
 * `level`, `breakdowns`, `action_breakdowns`, `filtering`, `sort`, `time_increment`), never a 500.
 */

/** Fields that are not numbers: labels, dates, and the per-action lists. */
export const LABEL_FIELDS = [
  'date_start',
  'date_stop',
  'account_id',
  'account_name',
  'account_currency',
  'campaign_id',
  'campaign_name',
  'adset_id',
  'adset_name',
  'ad_id',
  'ad_name',
  'objective',
  'optimization_goal',
] as const;
export const ACTION_FIELDS = ['actions', 'action_values', 'cost_per_action_type', 'conversions'] as const;
export const INSIGHTS_FIELDS: readonly string[] = [...Object.keys(NUMERIC_METRICS), ...ACTION_FIELDS, ...LABEL_FIELDS];
/** What a report without `fields` answers, as on the platform. */
export const DEFAULT_FIELDS = ['impressions', 'spend', 'date_start', 'date_stop'];

export const MAX_FIELDS = 100;
export const MAX_FILTERS = 25;
export const MAX_FILTER_VALUES = 1000;
export const MAX_SORTS = 5;

/** account 0 ... ad 3: a report's level is its target's own or a finer one. */
export const LEVEL_RANK: Record<InsightsLevel, number> = { account: 0, campaign: 1, adset: 2, ad: 3 };
export const finer = (a: InsightsLevel, b: InsightsLevel) => (LEVEL_RANK[a] >= LEVEL_RANK[b] ? a : b);

type ObjectLevel = Exclude<InsightsLevel, 'account'>;
const FILTER_LEVELS: Record<string, ObjectLevel> = { campaign: 'campaign', adset: 'adset', ad: 'ad' };
const STATUSES_OF: Record<ObjectLevel, readonly string[]> = {
  campaign: CAMPAIGN_EFFECTIVE_STATUSES,
  adset: AD_SET_EFFECTIVE_STATUSES,
  ad: AD_EFFECTIVE_STATUSES,
};

export const SET_OPERATORS = ['EQUAL', 'NOT_EQUAL', 'IN', 'NOT_IN'] as const;
export const NUMBER_OPERATORS = [
  'EQUAL',
  'NOT_EQUAL',
  'GREATER_THAN',
  'GREATER_THAN_OR_EQUAL',
  'LESS_THAN',
  'LESS_THAN_OR_EQUAL',
  'IN_RANGE',
  'NOT_IN_RANGE',
] as const;
export type NumberOperator = (typeof NUMBER_OPERATORS)[number];

/** Ids or effective statuses of one object level: the rows kept are those whose object (or ancestor) is (not) listed. */
export interface ObjectFilter {
  kind: 'id' | 'effective_status';
  level: ObjectLevel;
  exclude: boolean;
  values: string[];
}
/** A numeric field of the row compared with numbers (money in major units, as printed). */
export interface MetricFilter {
  kind: 'metric';
  field: NumericMetric;
  operator: NumberOperator;
  values: number[];
}
export type CheckedFilter = ObjectFilter | MetricFilter;

export interface CheckedQuery {
  fields: string[];
  level: InsightsLevel;
  breakdowns: BreakdownSelection;
  increment: TimeIncrement;
  filters: CheckedFilter[];
  sort: Array<InsightsSort & { field: NumericMetric }>;
}

const filterError = (message: string) => badInput('filtering', `Param filtering: ${message}`);

function checkFields(fields: readonly string[]): string[] {
  if (fields.length > MAX_FIELDS) throw badInput('fields', `Param fields may name at most ${MAX_FIELDS} fields.`);
  for (const field of fields) {
    if (!INSIGHTS_FIELDS.includes(field)) throw badInput('fields', `Param fields: ${field} is not a field of insights (one of ${INSIGHTS_FIELDS.join(', ')}).`);
  }
  return fields.length === 0 ? [...DEFAULT_FIELDS] : [...new Set(fields)];
}

/**
 * The report's level: its target's own by default; a finer one breaks it down (level=ad on a campaign). A coarser
 * one (level=campaign on an ad set) is error 100: an ad set's insights hold its own delivery, not its campaign's.
 * The target's own level, named (level=ad on an ad), is the default said out loud, and accepted.
 */
export function checkLevel(level: InsightsLevel | undefined, target: InsightsTargetKind): InsightsLevel {
  if (level === undefined) return target;
  if (!(INSIGHTS_LEVELS as readonly string[]).includes(level)) throw badInput('level', `Param level must be one of {${INSIGHTS_LEVELS.join(', ')}}.`);
  if (LEVEL_RANK[level] < LEVEL_RANK[target]) {
    throw badInput(
      'level',
      `Param level: ${level} is above this ${target === 'adset' ? 'ad set' : target}'s own level (${target}); read the ${level}'s insights instead.`,
    );
  }
  return level;
}

function listOf(value: unknown, operator: string, field: string): unknown[] {
  const many = operator === 'IN' || operator === 'NOT_IN' || operator === 'IN_RANGE' || operator === 'NOT_IN_RANGE';
  if (many !== Array.isArray(value)) throw filterError(`${field} ${operator} takes ${many ? 'a list' : 'a single value'}.`);
  const values = many ? (value as unknown[]) : [value];
  if (values.length === 0 || values.length > MAX_FILTER_VALUES) throw filterError(`${field} ${operator} takes 1 to ${MAX_FILTER_VALUES} values.`);
  return values;
}

function checkObjectFilter(field: string, operator: string, value: unknown): ObjectFilter {
  const [object, property] = field.split('.') as [string, string];
  const level = FILTER_LEVELS[object]!;
  if (!(SET_OPERATORS as readonly string[]).includes(operator)) throw filterError(`${field} takes the operators ${SET_OPERATORS.join(', ')}, not ${operator}.`);
  const values = listOf(value, operator, field).map((v) => (typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v));
  const exclude = operator === 'NOT_EQUAL' || operator === 'NOT_IN';
  if (property === 'id') {
    for (const id of values) if (typeof id !== 'string' || !/^[1-9][0-9]{0,18}$/.test(id)) throw filterError(`${field}: ${JSON.stringify(id)} is not an id.`);
    return { kind: 'id', level, exclude, values: values as string[] };
  }
  const allowed = STATUSES_OF[level];
  for (const status of values) {
    if (typeof status !== 'string' || !allowed.includes(status))
      throw filterError(`${field}: ${JSON.stringify(status)} is not one of {${allowed.join(', ')}}.`);
  }
  return { kind: 'effective_status', level, exclude, values: values as string[] };
}

function checkMetricFilter(field: NumericMetric, operator: string, value: unknown): MetricFilter {
  if (!(NUMBER_OPERATORS as readonly string[]).includes(operator))
    throw filterError(`${field} takes the operators ${NUMBER_OPERATORS.join(', ')}, not ${operator}.`);
  const values = listOf(value, operator, field).map((v) => (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v));
  for (const number of values)
    if (typeof number !== 'number' || !Number.isFinite(number)) throw filterError(`${field}: ${JSON.stringify(number)} is not a number.`);
  if ((operator === 'IN_RANGE' || operator === 'NOT_IN_RANGE') && values.length !== 2) throw filterError(`${field} ${operator} takes [low, high].`);
  return { kind: 'metric', field, operator: operator as NumberOperator, values: values as number[] };
}

/** The platform's filtering list: `[{field, operator, value}]`. */
export function checkFilters(filters: ReadonlyArray<{ field: unknown; operator: unknown; value: unknown }>): CheckedFilter[] {
  if (!Array.isArray(filters)) throw filterError('must be a list of {field, operator, value}.');
  if (filters.length > MAX_FILTERS) throw filterError(`at most ${MAX_FILTERS} filters.`);
  return filters.map((filter) => {
    const { field, operator, value } = (filter ?? {}) as { field: unknown; operator: unknown; value: unknown };
    if (typeof field !== 'string' || typeof operator !== 'string') throw filterError('each filter needs a field and an operator.');
    if (/^(campaign|adset|ad)\.(id|effective_status)$/.test(field)) return checkObjectFilter(field, operator, value);
    if (isNumericMetric(field)) return checkMetricFilter(field, operator, value);
    throw filterError(
      `${field} cannot be filtered on (campaign.id, adset.id, ad.id, campaign.effective_status, adset.effective_status, ad.effective_status, or a numeric field).`,
    );
  });
}

/** Whether a value passes a metric filter (a row without the value, a ratio over 0, passes none). */
export function passesMetric(filter: MetricFilter, value: number | undefined): boolean {
  if (value === undefined) return false;
  const [a, b] = filter.values as [number, number];
  switch (filter.operator) {
    case 'EQUAL':
      return value === a;
    case 'NOT_EQUAL':
      return value !== a;
    case 'GREATER_THAN':
      return value > a;
    case 'GREATER_THAN_OR_EQUAL':
      return value >= a;
    case 'LESS_THAN':
      return value < a;
    case 'LESS_THAN_OR_EQUAL':
      return value <= a;
    case 'IN_RANGE':
      return value >= a && value <= b;
    case 'NOT_IN_RANGE':
      return value < a || value > b;
  }
}

function checkSort(sort: readonly InsightsSort[]): CheckedQuery['sort'] {
  if (sort.length > MAX_SORTS) throw badInput('sort', `Param sort may name at most ${MAX_SORTS} fields.`);
  return sort.map(({ field, direction }) => {
    if (!isNumericMetric(field))
      throw badInput('sort', `Param sort: ${field} is not a numeric field of insights (one of ${Object.keys(NUMERIC_METRICS).join(', ')}).`);
    if (direction !== 'ascending' && direction !== 'descending')
      throw badInput('sort', `Param sort: ${field}_${String(direction)} must end in _ascending or _descending.`);
    return { field, direction };
  });
}

/** The query checked against its target's kind. */
export function checkQuery(query: InsightsQuery, target: InsightsTargetKind): CheckedQuery {
  for (const breakdown of query.actionBreakdowns ?? []) {
    if (!(ACTION_BREAKDOWNS as readonly string[]).includes(breakdown)) {
      throw badInput('action_breakdowns', `Param action_breakdowns[] must be one of {${ACTION_BREAKDOWNS.join(', ')}}: ${breakdown} is not one.`);
    }
  }
  return {
    fields: checkFields(query.fields ?? []),
    level: checkLevel(query.level, target),
    breakdowns: familyFor(query.breakdowns ?? []),
    increment: checkIncrement(query.timeIncrement),
    filters: checkFilters(query.filtering ?? []),
    sort: checkSort(query.sort ?? []),
  };
}
