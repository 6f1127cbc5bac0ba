/**
 * Automated ad rules (the platform's ad rules library, `/act_<id>/adrules_library`): the checks a rule passes before
 * it is stored, its evaluation (which objects it matches, what a budget change makes of a budget, whether an object
 * may be acted on again) and its schedule (the latest instant it should have run). Pure tables and functions, no
 * I/O: the service looks up the account's objects and hands them over as facts; it reads the objects and their
 * statistics and hands them to objectMatches, and stores the period a rule last ran for isDue.
 */
import type { Day } from '../../insights/query.ts';
import { addDays } from '../../insights/rules/windows.ts';
import { EFFECTIVE_STATUSES, type EffectiveStatus } from './effective-status.ts';
import { asObject } from './stored-json.ts';
import { violation, type Violation } from './violations.ts';

/** A rule's own status; DELETED is set by deleting the rule, never written (see WRITABLE_RULE_STATUSES). */
export const RULE_STATUSES = ['ENABLED', 'DISABLED', 'DELETED'] as const;
export type RuleStatus = (typeof RULE_STATUSES)[number];
/** The statuses a create or an update may set: a rule becomes DELETED only by being deleted. */
export const WRITABLE_RULE_STATUSES = ['ENABLED', 'DISABLED'] as const satisfies readonly RuleStatus[];

/** SCHEDULE rules run on their schedule_spec; TRIGGER rules when their trigger fires (checked every half hour here). */
export const EVALUATION_TYPES = ['SCHEDULE', 'TRIGGER'] as const;
export type EvaluationType = (typeof EVALUATION_TYPES)[number];

/** The objects a rule acts on, named by its one entity_type filter. */
export const ENTITY_TYPES = ['AD', 'ADSET', 'CAMPAIGN'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** What a rule does to each matching object. */
export const EXECUTION_TYPES = ['PAUSE', 'UNPAUSE', 'NOTIFICATION', 'CHANGE_BUDGET', 'CHANGE_CAMPAIGN_BUDGET'] as const;
export type ExecutionType = (typeof EXECUTION_TYPES)[number];
/** A TRIGGER rule reacts at once and may only pause, unpause or notify, as on the platform. */
export const TRIGGER_EXECUTION_TYPES = ['PAUSE', 'UNPAUSE', 'NOTIFICATION'] as const satisfies readonly ExecutionType[];
/** The entity type each budget change acts on: ad set budgets, campaign (budget optimization) budgets. */
export const BUDGET_ENTITY_TYPES = { CHANGE_BUDGET: 'ADSET', CHANGE_CAMPAIGN_BUDGET: 'CAMPAIGN' } as const satisfies Partial<Record<ExecutionType, EntityType>>;

/** How often a SCHEDULE rule runs: local midnight, every local hour, every local half hour, or the listed times. */
export const SCHEDULE_TYPES = ['DAILY', 'HOURLY', 'SEMI_HOURLY', 'CUSTOM'] as const;
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];

/** The statistics window of a rule's metric filters and trigger (see presetDays for the days each covers). */
export const TIME_PRESETS = [
  'TODAY',
  'YESTERDAY',
  'LAST_2_DAYS',
  'LAST_3_DAYS',
  'LAST_7_DAYS',
  'LAST_14_DAYS',
  'LAST_28_DAYS',
  'LAST_30_DAYS',
  'THIS_MONTH',
  'LIFETIME',
] as const;
export type TimePreset = (typeof TIME_PRESETS)[number];

/**
 * The statistics a rule can compare: spent, cpc, cpm and cost_per_result in minor units of the account currency
 * (500 is 5.00, as the platform's rules write money), impressions, clicks and results (optimization events) as
 * counts, ctr in percent (1.5 is 1.5%).
 */
export const METRIC_FIELDS = ['spent', 'impressions', 'clicks', 'results', 'cpc', 'cpm', 'cost_per_result', 'ctr'] as const;
export type MetricField = (typeof METRIC_FIELDS)[number];
const METRIC_UNITS: Record<MetricField, string> = {
  spent: 'minor units of the account currency, 500 is 5.00',
  impressions: 'a count',
  clicks: 'a count',
  results: 'a count',
  cpc: 'minor units of the account currency, 500 is 5.00',
  cpm: 'minor units of the account currency, 500 is 5.00',
  cost_per_result: 'minor units of the account currency, 500 is 5.00',
  ctr: 'percent, 1.5 is 1.5%',
};

export const COMPARISON_OPERATORS = ['GREATER_THAN', 'LESS_THAN', 'EQUAL', 'NOT_EQUAL'] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];
/** Both ends included: IN_RANGE [100, 200] passes 100 and 200, NOT_IN_RANGE passes below 100 and above 200. */
export const RANGE_OPERATORS = ['IN_RANGE', 'NOT_IN_RANGE'] as const;
export type RangeOperator = (typeof RANGE_OPERATORS)[number];
/** The operators of a metric filter (and of a STATS_CHANGE trigger). */
export const METRIC_OPERATORS = [...COMPARISON_OPERATORS, ...RANGE_OPERATORS] as const;

/** Every filter field: the metadata ones (one entity_type, at most one time_preset and one of each id field), then the metrics. */
export const FILTER_FIELDS = ['entity_type', 'time_preset', 'id', 'campaign.id', 'adset.id', 'name', 'effective_status', ...METRIC_FIELDS] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];
export type FilterOperator = (typeof METRIC_OPERATORS)[number] | 'IN' | 'NOT_IN' | 'CONTAIN' | 'NOT_CONTAIN';

/** The operators each filter field takes: the table the checks read, and the one their messages quote. */
export const FILTER_OPERATORS = {
  entity_type: ['EQUAL'],
  time_preset: ['EQUAL'],
  id: ['IN', 'EQUAL'],
  'campaign.id': ['IN', 'NOT_IN'],
  'adset.id': ['IN', 'NOT_IN'],
  name: ['CONTAIN', 'NOT_CONTAIN'],
  effective_status: ['IN', 'NOT_IN'],
  ...(Object.fromEntries(METRIC_FIELDS.map((field) => [field, METRIC_OPERATORS])) as Record<MetricField, typeof METRIC_OPERATORS>),
} as const satisfies Record<FilterField, readonly FilterOperator[]>;

/** STATS_CHANGE triggers watch a metric, METADATA_CHANGE triggers an object's name or effective status. */
export const TRIGGER_TYPES = ['STATS_CHANGE', 'METADATA_CHANGE'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];
const TRIGGER_FIELDS: Record<TriggerType, readonly FilterField[]> = { STATS_CHANGE: METRIC_FIELDS, METADATA_CHANGE: ['name', 'effective_status'] };

/** The execution options: change_spec (budget changes only), action_frequency and user_ids (any execution type). */
export const EXECUTION_OPTION_FIELDS = ['change_spec', 'action_frequency', 'user_ids'] as const;
export type ExecutionOptionField = (typeof EXECUTION_OPTION_FIELDS)[number];
/** A budget change in percent of the current budget, or in minor units of the account currency. */
export const CHANGE_UNITS = ['PERCENTAGE', 'ACCOUNT_CURRENCY'] as const;
export type ChangeUnit = (typeof CHANGE_UNITS)[number];

/** A rule's name is at most this many characters (code points). */
export const MAX_NAME_LENGTH = 100;
export const MAX_FILTERS = 50;
/** Ids an id, campaign.id or adset.id filter may list. */
export const MAX_FILTER_IDS = 1000;
/** A percentage change lies in [MIN_PERCENTAGE, MAX_PERCENTAGE]: at most a 90% cut, at most eleven times the budget. */
export const MIN_PERCENTAGE = -90;
export const MAX_PERCENTAGE = 1000;
/** The least action_frequency, in minutes (the rules' own check interval). */
export const MIN_ACTION_FREQUENCY_MINUTES = 30;
export const MAX_SCHEDULE_ENTRIES = 48;
const MINUTES_PER_DAY = 1440;
const HALF_HOUR = 30;
/** How far back latestRunAt looks for a scheduled instant: a week and a day covers any weekly CUSTOM entry. */
export const SCHEDULE_SEARCH_DAYS = 8;

/** A rule as the caller sent it (on update: merged with the stored rule), parsed from JSON but NOT type-checked. */
export interface RuleInput {
  name?: unknown;
  status?: unknown;
  evaluationSpec?: unknown;
  executionSpec?: unknown;
  scheduleSpec?: unknown;
}

/** The account's objects that are not deleted (looked up by the caller), for the id filters. */
export interface RuleFacts {
  objectIds: { AD: ReadonlySet<string>; ADSET: ReadonlySet<string>; CAMPAIGN: ReadonlySet<string> };
}

export interface IdFilter {
  operator: 'IN' | 'NOT_IN';
  ids: string[];
}
/** Case-insensitive: CONTAIN "sale" passes "Summer SALE". */
export interface NameFilter {
  field: 'name';
  operator: 'CONTAIN' | 'NOT_CONTAIN';
  value: string;
}
export interface StatusFilter {
  field: 'effective_status';
  operator: 'IN' | 'NOT_IN';
  value: EffectiveStatus[];
}
export type MetadataFilter = NameFilter | StatusFilter;
export type MetricFilter =
  { field: MetricField; operator: ComparisonOperator; value: number } | { field: MetricField; operator: RangeOperator; value: [number, number] };

export interface CheckedEvaluation {
  type: EvaluationType;
  entityType: EntityType;
  /** The objects named by an id filter (of entityType's kind); null: all the account's objects of that kind. */
  ids: string[] | null;
  campaignIds: IdFilter | null;
  /** Only for entityType AD. */
  adSetIds: IdFilter | null;
  /** Required with metric filters or a trigger; TODAY for TRIGGER rules. */
  timePreset: TimePreset | null;
  nameFilters: NameFilter[];
  statusFilters: StatusFilter[];
  metricFilters: MetricFilter[];
  /** TRIGGER rules only: a metric filter (STATS_CHANGE) or a metadata filter (METADATA_CHANGE). */
  trigger: MetricFilter | MetadataFilter | null;
}

/** amount: percent, or minor units of the account currency; limit: minor units, a ceiling for increases and a floor for decreases. */
export interface BudgetChange {
  amount: number;
  unit: ChangeUnit;
  limit: number | null;
}

export interface CheckedExecution {
  type: ExecutionType;
  /** CHANGE_BUDGET and CHANGE_CAMPAIGN_BUDGET only. */
  change: BudgetChange | null;
  /** The least time between two actions of the rule on one object; null: no limit beyond the schedule. */
  actionFrequencyMinutes: number | null;
  /** Users notified besides the rule's owner (any execution type). */
  userIds: string[];
}

/**
 * One CUSTOM schedule entry, minutes after local midnight: start only runs at that minute; start and end every
 * half hour from start to end inclusive; days only every half hour. days: 0 Sunday ... 6 Saturday, null every day.
 */
export interface ScheduleEntry {
  days: number[] | null;
  startMinute: number | null;
  endMinute: number | null;
}

export interface CheckedSchedule {
  type: ScheduleType;
  /** CUSTOM only; empty for the other types. */
  entries: ScheduleEntry[];
}

/** A rule checked and normalized: the form evaluation and scheduling read, and specsOf writes back. */
export interface CheckedRule {
  name: string;
  status: RuleStatus;
  evaluation: CheckedEvaluation;
  execution: CheckedExecution;
  /** null for TRIGGER rules (see TRIGGER_SCHEDULE). */
  schedule: CheckedSchedule | null;
}

const missing = (value: unknown) => value === undefined || value === null;
/** Length in characters (code points), as the platform counts them. */
const length = (text: string) => [...text].length;
const isOneOf = <T>(list: readonly T[], value: unknown): value is T => (list as readonly unknown[]).includes(value);
const listed = (list: readonly string[]) => list.join(', ');
const shown = (value: unknown) => JSON.stringify(value) ?? String(value);
/** A whole number (an integer-valued JSON number). */
const isWhole = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);
/** A metric threshold: a finite number, at least 0. */
const isThreshold = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** An object id as the caller may send it: a string of digits or a non-negative whole number; null otherwise. */
function idOf(value: unknown): string | null {
  if (typeof value === 'string') return /^\d+$/.test(value) ? value : null;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return null;
}

const NOUNS: Record<EntityType, [string, string]> = { AD: ['an ad', 'ads'], ADSET: ['an ad set', 'ad sets'], CAMPAIGN: ['a campaign', 'campaigns'] };

// ---------------------------------------------------------------------------------------------------------------
// name and status

function nameOf(value: unknown, out: Violation[]): string | null {
  if (missing(value) || (typeof value === 'string' && value.trim() === '')) out.push(violation('name', 'The parameter name is required'));
  else if (typeof value !== 'string') out.push(violation('name', 'Param name must be a string'));
  else if (length(value) > MAX_NAME_LENGTH) out.push(violation('name', `Param name must be at most ${MAX_NAME_LENGTH} characters long`));
  else return value;
  return null;
}

function statusOf(value: unknown, mode: 'create' | 'update', out: Violation[]): RuleStatus | null {
  if (missing(value)) return 'ENABLED';
  if (isOneOf(WRITABLE_RULE_STATUSES, value)) return value;
  if (value === 'DELETED') {
    const how = mode === 'create' ? 'a rule is created ENABLED or DISABLED' : 'a rule is updated to ENABLED or DISABLED';
    out.push(violation('status', `Param status: ${how}; DELETED is set by deleting the rule`));
  } else {
    out.push(violation('status', `Param status must be ENABLED or DISABLED, got ${shown(value)}`));
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// conditions: filters and triggers

type IdField = 'id' | 'campaign.id' | 'adset.id';
/** A filter or trigger read: the id filter's EQUAL is read as IN with its one id. */
type Condition =
  | { field: 'entity_type'; operator: 'EQUAL'; value: EntityType }
  | { field: 'time_preset'; operator: 'EQUAL'; value: TimePreset }
  | { field: IdField; operator: 'IN' | 'NOT_IN'; value: string[] }
  | MetadataFilter
  | MetricFilter;

const isMetricFilter = (condition: Condition): condition is MetricFilter => isOneOf(METRIC_FIELDS, condition.field);

const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The most users one rule notifies besides its owner. */
export const MAX_NOTIFIED_USERS = 50;

/** user_ids: the gateway's users are UUIDs (the identity API's ids); 1 to MAX_NOTIFIED_USERS, repeats dropped. */
function userIdsOf(value: unknown, path: string, out: Violation[]): string[] | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_NOTIFIED_USERS) {
    out.push(violation(path, `Param ${path} must be a list of 1 to ${MAX_NOTIFIED_USERS} user ids`));
    return null;
  }
  const bad = value.findIndex((entry) => typeof entry !== 'string' || !USER_ID.test(entry));
  if (bad >= 0) {
    out.push(violation(`${path}[${bad}]`, `Param ${path}[${bad}] must be a user id (a UUID)`));
    return null;
  }
  return [...new Set(value.map((id: string) => id.toLowerCase()))];
}

/** A list of object ids: 1 to MAX_FILTER_IDS ids, repeats dropped. EQUAL takes one id, bare or in a list. */
function idsOf(value: unknown, path: string, equal: boolean, out: Violation[]): string[] | null {
  if (equal && !Array.isArray(value)) {
    const id = idOf(value);
    if (id === null) out.push(violation(path, `Param ${path} must be an id (a string of digits)`));
    return id === null ? null : [id];
  }
  if (!Array.isArray(value)) {
    out.push(violation(path, `Param ${path} must be a list of ids`));
    return null;
  }
  if (equal && value.length !== 1) {
    out.push(violation(path, `Param ${path}: with the operator EQUAL an id filter names one object; use IN for several`));
    return null;
  }
  const before = out.length;
  if (value.length === 0) out.push(violation(path, `Param ${path} must list at least one id`));
  if (value.length > MAX_FILTER_IDS) out.push(violation(path, `Param ${path} may list at most ${MAX_FILTER_IDS} ids, got ${value.length}`));
  const ids = new Set<string>();
  value.forEach((entry: unknown, j) => {
    const id = idOf(entry);
    if (id === null) out.push(violation(`${path}[${j}]`, `Param ${path}[${j}] must be an id (a string of digits)`));
    else ids.add(id);
  });
  return out.length === before ? [...ids] : null;
}

function statusesOf(value: unknown, path: string, out: Violation[]): EffectiveStatus[] | null {
  if (!Array.isArray(value) || value.length === 0) {
    out.push(violation(path, `Param ${path} must be a non-empty list of effective statuses: ${listed(EFFECTIVE_STATUSES)}`));
    return null;
  }
  const before = out.length;
  const statuses = new Set<EffectiveStatus>();
  value.forEach((entry: unknown, j) => {
    if (isOneOf(EFFECTIVE_STATUSES, entry)) statuses.add(entry);
    else out.push(violation(`${path}[${j}]`, `Param ${path}[${j}] must be one of ${listed(EFFECTIVE_STATUSES)}, got ${shown(entry)}`));
  });
  return out.length === before ? [...statuses] : null;
}

function metricValueOf(field: MetricField, operator: FilterOperator, value: unknown, path: string, out: Violation[]): MetricFilter | null {
  const unit = METRIC_UNITS[field];
  if (isOneOf(RANGE_OPERATORS, operator)) {
    if (!Array.isArray(value) || value.length !== 2 || !isThreshold(value[0]) || !isThreshold(value[1])) {
      out.push(violation(path, `Param ${path} must be a pair [low, high] of numbers of at least 0 (${field}: ${unit})`));
      return null;
    }
    const [low, high] = value as [number, number];
    if (low > high) {
      out.push(violation(path, `Param ${path}: the low end ${low} is above the high end ${high}`));
      return null;
    }
    return { field, operator, value: [low, high] };
  }
  if (!isOneOf(COMPARISON_OPERATORS, operator)) return null;
  if (!isThreshold(value)) {
    out.push(violation(path, `Param ${path} must be a number of at least 0 (${field}: ${unit})`));
    return null;
  }
  return { field, operator, value };
}

/** The value of a condition whose field and operator are known, checked for that field and operator. */
function conditionValueOf(field: FilterField, operator: FilterOperator, value: unknown, path: string, out: Violation[]): Condition | null {
  switch (field) {
    case 'entity_type':
      if (isOneOf(ENTITY_TYPES, value)) return { field, operator: 'EQUAL', value };
      out.push(violation(path, `Param ${path} must be one of ${listed(ENTITY_TYPES)}, got ${shown(value)}`));
      return null;
    case 'time_preset':
      if (isOneOf(TIME_PRESETS, value)) return { field, operator: 'EQUAL', value };
      out.push(violation(path, `Param ${path} must be one of ${listed(TIME_PRESETS)}, got ${shown(value)}`));
      return null;
    case 'id':
    case 'campaign.id':
    case 'adset.id': {
      const ids = idsOf(value, path, operator === 'EQUAL', out);
      return ids === null ? null : { field, operator: operator === 'NOT_IN' ? 'NOT_IN' : 'IN', value: ids };
    }
    case 'name':
      if (typeof value === 'string' && value !== '') return { field, operator: operator as NameFilter['operator'], value };
      out.push(violation(path, `Param ${path} must be a non-empty string`));
      return null;
    case 'effective_status': {
      const statuses = statusesOf(value, path, out);
      return statuses === null ? null : { field, operator: operator as StatusFilter['operator'], value: statuses };
    }
    default:
      return metricValueOf(field, operator, value, path, out);
  }
}

/**
 * One condition {field, value, operator} at `path`: the field among `fields` (else `unknownField` says so), an
 * operator the field takes, a value of the field's and operator's shape. Answers the field when it is known, even
 * if the rest is wrong (so duplicates and requirements are told once), and the condition when all of it is right.
 */
function conditionOf(
  raw: unknown,
  path: string,
  fields: readonly FilterField[],
  unknownField: (got: unknown) => string,
  out: Violation[],
): { field: FilterField | null; condition: Condition | null } {
  const entry = asObject(raw);
  if (entry === null) {
    out.push(violation(path, `Param ${path} must be an object with field, value and operator`));
    return { field: null, condition: null };
  }
  let field: FilterField | null = null;
  if (missing(entry.field)) out.push(violation(`${path}.field`, `The parameter ${path}.field is required`));
  else if (!isOneOf(fields, entry.field)) out.push(violation(`${path}.field`, unknownField(entry.field)));
  else field = entry.field;

  let operator: FilterOperator | null = null;
  if (missing(entry.operator)) out.push(violation(`${path}.operator`, `The parameter ${path}.operator is required`));
  else if (field !== null) {
    const allowed: readonly FilterOperator[] = FILTER_OPERATORS[field];
    if (isOneOf(allowed, entry.operator)) operator = entry.operator;
    else
      out.push(
        violation(`${path}.operator`, `Param ${path}.operator: the field ${field} takes the operators ${listed(allowed)}, got ${shown(entry.operator)}`),
      );
  }

  if (missing(entry.value)) {
    out.push(violation(`${path}.value`, `The parameter ${path}.value is required`));
    return { field, condition: null };
  }
  if (field === null || operator === null) return { field, condition: null };
  return { field, condition: conditionValueOf(field, operator, entry.value, `${path}.value`, out) };
}

/** Ids not among the account's objects of a kind, in one violation (the first ten named). Other accounts' ids read as unknown. */
function unknownIds(path: string, ids: readonly string[], kind: EntityType, facts: RuleFacts): Violation[] {
  const unknown = ids.filter((id) => !facts.objectIds[kind].has(id));
  if (unknown.length === 0) return [];
  const [one, many] = NOUNS[kind];
  const named = unknown.slice(0, 10).join(', ') + (unknown.length > 10 ? ` and ${unknown.length - 10} more` : '');
  return [violation(path, `Param ${path}: ${named} ${unknown.length === 1 ? `is not ${one}` : `are not ${many}`} of this ad account`)];
}

const SINGLE_FILTERS = ['entity_type', 'time_preset', 'id', 'campaign.id', 'adset.id'] as const satisfies readonly FilterField[];

const unknownFilterField = (index: number) => (got: unknown) =>
  `Param evaluation_spec.filters[${index}].field: unknown filter field ${shown(got)}; the fields are ${listed(FILTER_FIELDS)}`;

interface EvaluationRead {
  type: EvaluationType | null;
  entityType: EntityType | null;
  evaluation: CheckedEvaluation | null;
}

/** The filters: a list of at most MAX_FILTERS objects, all ANDed, with the requirements between them. */
function filtersOf(value: unknown, type: EvaluationType | null, facts: RuleFacts, out: Violation[]) {
  const path = 'evaluation_spec.filters';
  const read: Array<{ index: number; condition: Condition }> = [];
  if (missing(value)) {
    out.push(violation(path, `The parameter ${path} is required`));
    return null;
  }
  if (!Array.isArray(value)) {
    out.push(violation(path, `Param ${path} must be a list of filters {field, value, operator}`));
    return null;
  }
  const head: Violation[] = [];
  const perFilter: Violation[][] = value.map(() => []);
  if (value.length > MAX_FILTERS) head.push(violation(path, `Param ${path} may hold at most ${MAX_FILTERS} filters, got ${value.length}`));
  const firstIndex = new Map<FilterField, number>();
  let metricSeen = false;
  value.forEach((raw: unknown, i) => {
    const own = perFilter[i]!;
    const { field, condition } = conditionOf(raw, `${path}[${i}]`, FILTER_FIELDS, unknownFilterField(i), own);
    if (field === null) return;
    if (isOneOf(METRIC_FIELDS, field)) metricSeen = true;
    const first = firstIndex.get(field);
    if (first === undefined) firstIndex.set(field, i);
    else if (isOneOf(SINGLE_FILTERS, field)) {
      own.push(violation(`${path}[${i}].field`, `Param ${path}[${i}].field: a rule has one ${field} filter, ${path}[${first}] is one already`));
      return;
    }
    if (condition !== null) read.push({ index: i, condition });
  });

  if (!firstIndex.has('entity_type')) {
    head.push(violation(path, `Param ${path} must hold an entity_type filter (operator EQUAL, value ${listed(ENTITY_TYPES)}): the objects the rule acts on`));
  }
  if ((metricSeen || type === 'TRIGGER') && !firstIndex.has('time_preset')) {
    head.push(
      violation(path, `Param ${path} must hold a time_preset filter (operator EQUAL): metric filters and triggers read the statistics of a time preset`),
    );
  }

  let entityType: EntityType | null = null;
  for (const { condition } of read) if (condition.field === 'entity_type') entityType = condition.value;
  const evaluation: Omit<CheckedEvaluation, 'type' | 'entityType' | 'trigger'> = {
    ids: null,
    campaignIds: null,
    adSetIds: null,
    timePreset: null,
    nameFilters: [],
    statusFilters: [],
    metricFilters: [],
  };
  for (const { index, condition } of read) {
    const at = `${path}[${index}]`;
    const own = perFilter[index]!;
    switch (condition.field) {
      case 'entity_type':
        break;
      case 'time_preset':
        if (type === 'TRIGGER' && condition.value !== 'TODAY') {
          own.push(
            violation(`${at}.value`, `Param ${at}.value: a TRIGGER rule reads today's statistics, its time_preset must be TODAY, got ${condition.value}`),
          );
        }
        evaluation.timePreset = condition.value;
        break;
      case 'id':
        if (entityType !== null) own.push(...unknownIds(`${at}.value`, condition.value, entityType, facts));
        evaluation.ids = condition.value;
        break;
      case 'campaign.id':
        if (entityType === 'CAMPAIGN') {
          own.push(
            violation(`${at}.field`, `Param ${at}.field: campaign.id narrows the ads or ad sets of campaigns, the rule's entity_type is CAMPAIGN (use id)`),
          );
        }
        own.push(...unknownIds(`${at}.value`, condition.value, 'CAMPAIGN', facts));
        evaluation.campaignIds = { operator: condition.operator, ids: condition.value };
        break;
      case 'adset.id':
        if (entityType !== null && entityType !== 'AD') {
          own.push(violation(`${at}.field`, `Param ${at}.field: adset.id narrows the ads of ad sets, the rule's entity_type is ${entityType}`));
        }
        own.push(...unknownIds(`${at}.value`, condition.value, 'ADSET', facts));
        evaluation.adSetIds = { operator: condition.operator, ids: condition.value };
        break;
      case 'name':
        evaluation.nameFilters.push(condition);
        break;
      case 'effective_status':
        evaluation.statusFilters.push(condition);
        break;
      default:
        evaluation.metricFilters.push(condition);
    }
  }
  out.push(...head, ...perFilter.flat());
  return { entityType, evaluation };
}

/** The trigger: required for TRIGGER rules, refused for SCHEDULE ones; its field fits its type. */
function triggerOf(value: unknown, type: EvaluationType | null, out: Violation[]): MetricFilter | MetadataFilter | null {
  const path = 'evaluation_spec.trigger';
  if (missing(value)) {
    if (type === 'TRIGGER') out.push(violation(path, `The parameter ${path} is required: a TRIGGER rule acts when its trigger fires`));
    return null;
  }
  if (type === 'SCHEDULE') {
    out.push(violation(path, `Param ${path}: a SCHEDULE rule has no trigger (a rule with a trigger has evaluation_type TRIGGER)`));
    return null;
  }
  const trigger = asObject(value);
  if (trigger === null) {
    out.push(violation(path, `Param ${path} must be an object with type, field, value and operator`));
    return null;
  }
  let triggerType: TriggerType | null = null;
  if (missing(trigger.type)) out.push(violation(`${path}.type`, `The parameter ${path}.type is required`));
  else if (!isOneOf(TRIGGER_TYPES, trigger.type))
    out.push(violation(`${path}.type`, `Param ${path}.type must be one of ${listed(TRIGGER_TYPES)}, got ${shown(trigger.type)}`));
  else triggerType = trigger.type;
  const fields = triggerType === null ? [...TRIGGER_FIELDS.STATS_CHANGE, ...TRIGGER_FIELDS.METADATA_CHANGE] : TRIGGER_FIELDS[triggerType];
  const unknownField = (got: unknown) =>
    triggerType === null
      ? `Param ${path}.field: unknown trigger field ${shown(got)}; the fields are ${listed(fields)}`
      : `Param ${path}.field: a ${triggerType} trigger watches one of ${listed(fields)}, got ${shown(got)}`;
  const { condition } = conditionOf(trigger, path, fields, unknownField, out);
  return condition as MetricFilter | MetadataFilter | null;
}

function evaluationOf(value: unknown, facts: RuleFacts, out: Violation[]): EvaluationRead {
  const none: EvaluationRead = { type: null, entityType: null, evaluation: null };
  if (missing(value)) {
    out.push(violation('evaluation_spec', 'The parameter evaluation_spec is required'));
    return none;
  }
  const spec = asObject(value);
  if (spec === null) {
    out.push(violation('evaluation_spec', 'Param evaluation_spec must be an object with evaluation_type and filters'));
    return none;
  }
  const before = out.length;
  let type: EvaluationType | null = null;
  if (missing(spec.evaluation_type)) out.push(violation('evaluation_spec.evaluation_type', 'The parameter evaluation_spec.evaluation_type is required'));
  else if (!isOneOf(EVALUATION_TYPES, spec.evaluation_type)) {
    out.push(
      violation(
        'evaluation_spec.evaluation_type',
        `Param evaluation_spec.evaluation_type must be one of ${listed(EVALUATION_TYPES)}, got ${shown(spec.evaluation_type)}`,
      ),
    );
  } else type = spec.evaluation_type;
  const filters = filtersOf(spec.filters, type, facts, out);
  const trigger = triggerOf(spec.trigger, type, out);
  const entityType = filters?.entityType ?? null;
  if (out.length > before || type === null || entityType === null || filters === null) return { type, entityType, evaluation: null };
  return { type, entityType, evaluation: { type, entityType, ...filters.evaluation, trigger } };
}

// ---------------------------------------------------------------------------------------------------------------
// execution_spec

const CHANGE_KEYS = ['amount', 'unit', 'limit'];

/**
 * A change_spec value {amount, unit, limit?}. Unknown keys are refused rather than dropped: a misspelled `limit`
 * would otherwise remove the cap of a budget change unnoticed.
 */
function changeOf(value: unknown, path: string, out: Violation[]): BudgetChange | null {
  const spec = asObject(value);
  if (spec === null) {
    out.push(violation(path, `Param ${path} must be an object {amount, unit, limit}`));
    return null;
  }
  const before = out.length;
  for (const key of Object.keys(spec)) {
    if (!CHANGE_KEYS.includes(key)) out.push(violation(`${path}.${key}`, `Param ${path}.${key}: unknown key; a change_spec takes ${listed(CHANGE_KEYS)}`));
  }
  let unit: ChangeUnit | null = null;
  if (missing(spec.unit)) out.push(violation(`${path}.unit`, `The parameter ${path}.unit is required`));
  else if (!isOneOf(CHANGE_UNITS, spec.unit))
    out.push(violation(`${path}.unit`, `Param ${path}.unit must be one of ${listed(CHANGE_UNITS)}, got ${shown(spec.unit)}`));
  else unit = spec.unit;

  const { amount, limit } = spec;
  if (missing(amount)) out.push(violation(`${path}.amount`, `The parameter ${path}.amount is required`));
  else if (typeof amount !== 'number' || !Number.isFinite(amount) || amount === 0) {
    out.push(violation(`${path}.amount`, `Param ${path}.amount must be a number other than 0 (below 0 lowers the budget)`));
  } else if (unit === 'PERCENTAGE' && (amount < MIN_PERCENTAGE || amount > MAX_PERCENTAGE)) {
    out.push(violation(`${path}.amount`, `Param ${path}.amount: a PERCENTAGE change is from ${MIN_PERCENTAGE} to ${MAX_PERCENTAGE} (percent), got ${amount}`));
  } else if (unit === 'ACCOUNT_CURRENCY' && !Number.isSafeInteger(amount)) {
    out.push(
      violation(
        `${path}.amount`,
        `Param ${path}.amount: an ACCOUNT_CURRENCY change is a whole number of minor units of the account currency (500 is 5.00), got ${amount}`,
      ),
    );
  }
  if (!missing(limit) && !(isWhole(limit) && limit > 0)) {
    out.push(violation(`${path}.limit`, `Param ${path}.limit must be a whole number above 0 (minor units of the account currency, 500 is 5.00)`));
  }
  if (out.length > before || unit === null) return null;
  return { amount: amount as number, unit, limit: missing(limit) ? null : (limit as number) };
}

function executionOf(value: unknown, evaluation: EvaluationRead, out: Violation[]): CheckedExecution | null {
  if (missing(value)) {
    out.push(violation('execution_spec', 'The parameter execution_spec is required'));
    return null;
  }
  const spec = asObject(value);
  if (spec === null) {
    out.push(violation('execution_spec', 'Param execution_spec must be an object with execution_type and, as needed, execution_options'));
    return null;
  }
  const before = out.length;
  const typePath = 'execution_spec.execution_type';
  let type: ExecutionType | null = null;
  if (missing(spec.execution_type)) out.push(violation(typePath, `The parameter ${typePath} is required`));
  else if (!isOneOf(EXECUTION_TYPES, spec.execution_type)) {
    out.push(violation(typePath, `Param ${typePath} must be one of ${listed(EXECUTION_TYPES)}, got ${shown(spec.execution_type)}`));
  } else type = spec.execution_type;

  if (type !== null && evaluation.type === 'TRIGGER' && !isOneOf(TRIGGER_EXECUTION_TYPES, type)) {
    out.push(violation(typePath, `Param ${typePath}: a TRIGGER rule may ${listed(TRIGGER_EXECUTION_TYPES)}, not ${type}`));
  }
  const budgetType = type === 'CHANGE_BUDGET' || type === 'CHANGE_CAMPAIGN_BUDGET' ? type : null;
  if (budgetType !== null && evaluation.entityType !== null && evaluation.entityType !== BUDGET_ENTITY_TYPES[budgetType]) {
    const [, objects] = NOUNS[BUDGET_ENTITY_TYPES[budgetType]];
    out.push(
      violation(
        typePath,
        `Param ${typePath}: ${budgetType} changes the budgets of ${objects}, so the rule's entity_type must be ${BUDGET_ENTITY_TYPES[budgetType]}, not ${evaluation.entityType}`,
      ),
    );
  }

  const settings: Omit<CheckedExecution, 'type'> = { change: null, actionFrequencyMinutes: null, userIds: [] };
  const optionsPath = 'execution_spec.execution_options';
  const options = spec.execution_options;
  let changeSeen = false;
  if (!missing(options) && !Array.isArray(options)) {
    out.push(violation(optionsPath, `Param ${optionsPath} must be a list of options {field, value, operator}`));
    changeSeen = true; // Said once: the list is wrong, not its change_spec.
  } else if (Array.isArray(options)) {
    const firstIndex = new Map<ExecutionOptionField, number>();
    options.forEach((raw: unknown, i) => {
      const path = `${optionsPath}[${i}]`;
      const option = asObject(raw);
      if (option === null) {
        out.push(violation(path, `Param ${path} must be an object with field, value and operator`));
        return;
      }
      let field: ExecutionOptionField | null = null;
      if (missing(option.field)) out.push(violation(`${path}.field`, `The parameter ${path}.field is required`));
      else if (!isOneOf(EXECUTION_OPTION_FIELDS, option.field)) {
        out.push(
          violation(
            `${path}.field`,
            `Param ${path}.field: unknown execution option ${shown(option.field)}; the options are ${listed(EXECUTION_OPTION_FIELDS)}`,
          ),
        );
      } else if (firstIndex.has(option.field)) {
        out.push(
          violation(
            `${path}.field`,
            `Param ${path}.field: the option ${option.field} is given twice, ${optionsPath}[${firstIndex.get(option.field)}] is one already`,
          ),
        );
        return;
      } else {
        field = option.field;
        firstIndex.set(field, i);
      }
      if (field === 'change_spec') {
        changeSeen = true;
        if (type !== null && budgetType === null) {
          out.push(violation(`${path}.field`, `Param ${path}.field: change_spec goes with CHANGE_BUDGET or CHANGE_CAMPAIGN_BUDGET, not ${type}`));
        }
      }
      if (missing(option.operator)) out.push(violation(`${path}.operator`, `The parameter ${path}.operator is required`));
      else if (option.operator !== 'EQUAL') {
        out.push(violation(`${path}.operator`, `Param ${path}.operator: execution options take the operator EQUAL, got ${shown(option.operator)}`));
      }
      const valuePath = `${path}.value`;
      if (missing(option.value)) {
        out.push(violation(valuePath, `The parameter ${valuePath} is required`));
        return;
      }
      if (field === 'change_spec') settings.change = changeOf(option.value, valuePath, out);
      else if (field === 'action_frequency') {
        if (isWhole(option.value) && option.value >= MIN_ACTION_FREQUENCY_MINUTES) settings.actionFrequencyMinutes = option.value;
        else out.push(violation(valuePath, `Param ${valuePath} must be a whole number of minutes, at least ${MIN_ACTION_FREQUENCY_MINUTES}`));
      } else if (field === 'user_ids') settings.userIds = userIdsOf(option.value, valuePath, out) ?? [];
    });
  }
  if (budgetType !== null && !changeSeen) {
    out.push(violation(optionsPath, `The parameter ${optionsPath} must hold a change_spec option (operator EQUAL): how ${budgetType} changes the budget`));
  }
  return out.length > before || type === null ? null : { type, ...settings };
}

// ---------------------------------------------------------------------------------------------------------------
// schedule_spec

const ENTRY_KEYS = ['days', 'start_minute', 'end_minute'];

/** A minute of a CUSTOM entry: whole, 0..1439, a multiple of 30. */
function minuteOf(value: unknown, path: string, out: Violation[]): number | null {
  if (missing(value)) return null;
  if (isWhole(value) && value >= 0 && value < MINUTES_PER_DAY && value % HALF_HOUR === 0) return value;
  out.push(violation(path, `Param ${path} must be a whole number of minutes after local midnight from 0 to 1439, a multiple of 30`));
  return null;
}

/**
 * One CUSTOM entry. Unknown keys are refused rather than dropped: a misspelled `start_minute` would otherwise turn
 * an entry meant to run once a day into one running every half hour.
 */
function entryOf(raw: unknown, path: string, out: Violation[]): ScheduleEntry | null {
  const entry = asObject(raw);
  if (entry === null) {
    out.push(violation(path, `Param ${path} must be an object with days, start_minute or end_minute`));
    return null;
  }
  const before = out.length;
  for (const key of Object.keys(entry)) {
    if (!ENTRY_KEYS.includes(key)) out.push(violation(`${path}.${key}`, `Param ${path}.${key}: unknown key; a schedule entry takes ${listed(ENTRY_KEYS)}`));
  }
  if (missing(entry.start_minute) && missing(entry.days)) out.push(violation(path, `Param ${path} must have start_minute or days`));
  let days: number[] | null = null;
  if (!missing(entry.days)) {
    if (!Array.isArray(entry.days) || entry.days.length === 0) {
      out.push(violation(`${path}.days`, `Param ${path}.days must be a non-empty list of days of the week, 0 (Sunday) to 6 (Saturday)`));
    } else {
      const seen = new Set<number>();
      entry.days.forEach((day: unknown, j) => {
        const at = `${path}.days[${j}]`;
        if (!isWhole(day) || day < 0 || day > 6)
          out.push(violation(at, `Param ${at} must be a day of the week, 0 (Sunday) to 6 (Saturday), got ${shown(day)}`));
        else if (seen.has(day)) out.push(violation(at, `Param ${at}: day ${day} is listed twice`));
        else seen.add(day);
      });
      days = [...seen].sort((a, b) => a - b);
    }
  }
  const startMinute = minuteOf(entry.start_minute, `${path}.start_minute`, out);
  const endMinute = minuteOf(entry.end_minute, `${path}.end_minute`, out);
  if (!missing(entry.end_minute) && missing(entry.start_minute)) {
    out.push(violation(`${path}.end_minute`, `Param ${path}.end_minute needs start_minute: an entry runs from start_minute to end_minute`));
  } else if (startMinute !== null && endMinute !== null && endMinute <= startMinute) {
    out.push(violation(`${path}.end_minute`, `Param ${path}.end_minute must be after start_minute (${startMinute}), got ${endMinute}`));
  }
  return out.length > before ? null : { days, startMinute, endMinute };
}

function scheduleOf(value: unknown, type: EvaluationType | null, out: Violation[]): CheckedSchedule | null {
  if (missing(value)) {
    if (type === 'SCHEDULE') out.push(violation('schedule_spec', 'The parameter schedule_spec is required: a SCHEDULE rule runs on its schedule'));
    return null;
  }
  if (type === 'TRIGGER') {
    out.push(violation('schedule_spec', 'Param schedule_spec: a TRIGGER rule has no schedule, it runs when its trigger fires'));
    return null;
  }
  const spec = asObject(value);
  if (spec === null) {
    out.push(violation('schedule_spec', 'Param schedule_spec must be an object with schedule_type'));
    return null;
  }
  const before = out.length;
  const typePath = 'schedule_spec.schedule_type';
  let scheduleType: ScheduleType | null = null;
  if (missing(spec.schedule_type)) out.push(violation(typePath, `The parameter ${typePath} is required`));
  else if (!isOneOf(SCHEDULE_TYPES, spec.schedule_type)) {
    out.push(violation(typePath, `Param ${typePath} must be one of ${listed(SCHEDULE_TYPES)}, got ${shown(spec.schedule_type)}`));
  } else scheduleType = spec.schedule_type;

  const path = 'schedule_spec.schedule';
  const entries: ScheduleEntry[] = [];
  if (missing(spec.schedule)) {
    if (scheduleType === 'CUSTOM') out.push(violation(path, `The parameter ${path} is required for the CUSTOM schedule_type: the times the rule runs`));
  } else if (scheduleType !== null && scheduleType !== 'CUSTOM') {
    out.push(violation(path, `Param ${path}: only the CUSTOM schedule_type lists times, this one is ${scheduleType}`));
  } else if (!Array.isArray(spec.schedule) || spec.schedule.length === 0) {
    out.push(violation(path, `Param ${path} must be a list of 1 to ${MAX_SCHEDULE_ENTRIES} entries {days, start_minute, end_minute}`));
  } else {
    if (spec.schedule.length > MAX_SCHEDULE_ENTRIES) {
      out.push(violation(path, `Param ${path} may list at most ${MAX_SCHEDULE_ENTRIES} entries, got ${spec.schedule.length}`));
    }
    spec.schedule.forEach((raw: unknown, i) => {
      const entry = entryOf(raw, `${path}[${i}]`, out);
      if (entry !== null) entries.push(entry);
    });
  }
  return out.length > before || scheduleType === null ? null : { type: scheduleType, entries };
}

// ---------------------------------------------------------------------------------------------------------------
// checkRule and specsOf

/**
 * Checks a rule before it is stored: every violation found (not only the first), in field order (name, status,
 * evaluation_spec, execution_spec, schedule_spec), each at its parameter path; the rule normalized when there is
 * none, null otherwise. On update the caller passes the rule merged with the stored one; `mode` only words the
 * refusal of status DELETED (a rule becomes DELETED by being deleted). A missing status reads as ENABLED.
 */
export function checkRule(input: RuleInput, facts: RuleFacts, mode: 'create' | 'update'): { rule: CheckedRule | null; violations: Violation[] } {
  const violations: Violation[] = [];
  const name = nameOf(input.name, violations);
  const status = statusOf(input.status, mode, violations);
  const evaluation = evaluationOf(input.evaluationSpec, facts, violations);
  const execution = executionOf(input.executionSpec, evaluation, violations);
  const schedule = scheduleOf(input.scheduleSpec, evaluation.type, violations);
  if (violations.length > 0 || name === null || status === null || evaluation.evaluation === null || execution === null) return { rule: null, violations };
  return { rule: { name, status, evaluation: evaluation.evaluation, execution, schedule }, violations };
}

/** A filter, trigger or execution option in the platform's JSON shape. */
export interface FilterSpec {
  field: string;
  value: string | number | string[] | number[];
  operator: string;
}
export interface ChangeSpec {
  amount: number;
  unit: ChangeUnit;
  limit?: number;
}
export interface ScheduleEntrySpec {
  days?: number[];
  start_minute?: number;
  end_minute?: number;
}
/** A rule's specs as the Graph API stores and reads them back. */
export interface RuleSpecs {
  evaluation_spec: { evaluation_type: EvaluationType; filters: FilterSpec[]; trigger?: { type: TriggerType } & FilterSpec };
  execution_spec: {
    execution_type: ExecutionType;
    execution_options?: Array<{ field: ExecutionOptionField; value: ChangeSpec | number | string[]; operator: 'EQUAL' }>;
  };
  /** null for TRIGGER rules: the field is left out. */
  schedule_spec: { schedule_type: ScheduleType; schedule?: ScheduleEntrySpec[] } | null;
}

const filterSpec = (filter: MetricFilter | MetadataFilter): FilterSpec => ({
  field: filter.field,
  value: Array.isArray(filter.value) ? ([...filter.value] as string[] | number[]) : filter.value,
  operator: filter.operator,
});

/**
 * The Graph JSON of a checked rule, as stored and read back: the platform's key names, ids as strings, the id
 * filter with the operator IN (an EQUAL one is stored as IN of its id), filters in a fixed order (entity_type, id,
 * campaign.id, adset.id, name, effective_status, time_preset, metrics), days sorted, options only when set.
 * checkRule of these specs gives the same rule back.
 */
export function specsOf(rule: CheckedRule): RuleSpecs {
  const { evaluation, execution, schedule } = rule;
  const filters: FilterSpec[] = [{ field: 'entity_type', value: evaluation.entityType, operator: 'EQUAL' }];
  if (evaluation.ids !== null) filters.push({ field: 'id', value: [...evaluation.ids], operator: 'IN' });
  if (evaluation.campaignIds !== null)
    filters.push({ field: 'campaign.id', value: [...evaluation.campaignIds.ids], operator: evaluation.campaignIds.operator });
  if (evaluation.adSetIds !== null) filters.push({ field: 'adset.id', value: [...evaluation.adSetIds.ids], operator: evaluation.adSetIds.operator });
  filters.push(...evaluation.nameFilters.map(filterSpec), ...evaluation.statusFilters.map(filterSpec));
  if (evaluation.timePreset !== null) filters.push({ field: 'time_preset', value: evaluation.timePreset, operator: 'EQUAL' });
  filters.push(...evaluation.metricFilters.map(filterSpec));
  const trigger = evaluation.trigger;

  const options: NonNullable<RuleSpecs['execution_spec']['execution_options']> = [];
  if (execution.change !== null) {
    const { amount, unit, limit } = execution.change;
    options.push({ field: 'change_spec', value: { amount, unit, ...(limit !== null ? { limit } : {}) }, operator: 'EQUAL' });
  }
  if (execution.actionFrequencyMinutes !== null) options.push({ field: 'action_frequency', value: execution.actionFrequencyMinutes, operator: 'EQUAL' });
  if (execution.userIds.length > 0) options.push({ field: 'user_ids', value: [...execution.userIds], operator: 'EQUAL' });

  return {
    evaluation_spec: {
      evaluation_type: evaluation.type,
      filters,
      ...(trigger !== null ? { trigger: { type: isMetricFilter(trigger) ? 'STATS_CHANGE' : 'METADATA_CHANGE', ...filterSpec(trigger) } } : {}),
    },
    execution_spec: { execution_type: execution.type, ...(options.length > 0 ? { execution_options: options } : {}) },
    schedule_spec:
      schedule === null
        ? null
        : {
            schedule_type: schedule.type,
            ...(schedule.type === 'CUSTOM'
              ? {
                  schedule: schedule.entries.map((entry) => ({
                    ...(entry.days !== null ? { days: [...entry.days] } : {}),
                    ...(entry.startMinute !== null ? { start_minute: entry.startMinute } : {}),
                    ...(entry.endMinute !== null ? { end_minute: entry.endMinute } : {}),
                  })),
                }
              : {}),
          },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// evaluation

type LastDaysPreset = 'LAST_2_DAYS' | 'LAST_3_DAYS' | 'LAST_7_DAYS' | 'LAST_14_DAYS' | 'LAST_28_DAYS' | 'LAST_30_DAYS';
const LAST_DAYS: Record<LastDaysPreset, number> = { LAST_2_DAYS: 2, LAST_3_DAYS: 3, LAST_7_DAYS: 7, LAST_14_DAYS: 14, LAST_28_DAYS: 28, LAST_30_DAYS: 30 };

/**
 * The days a time preset covers, given today in the account's time zone: LAST_N_DAYS are the N days ending
 * yesterday (today is not over), as on the platform; THIS_MONTH and LIFETIME end today; LIFETIME starts on
 * lifetimeStart (the object's or account's first day; today when that is later).
 */
export function presetDays(preset: TimePreset, today: Day, lifetimeStart: Day): { since: Day; until: Day } {
  switch (preset) {
    case 'TODAY':
      return { since: today, until: today };
    case 'YESTERDAY':
      return { since: addDays(today, -1), until: addDays(today, -1) };
    case 'THIS_MONTH':
      return { since: `${today.slice(0, 8)}01`, until: today };
    case 'LIFETIME':
      return { since: lifetimeStart < today ? lifetimeStart : today, until: today };
    default:
      return { since: addDays(today, -LAST_DAYS[preset]), until: addDays(today, -1) };
  }
}

/** An object's delivery over a preset's days: spend in minor units of the account currency, results its optimization events. */
export interface Delivery {
  impressions: number;
  clicks: number;
  spend: number;
  results: number;
}
/** The metric fields' values; a ratio is null when its denominator is 0. */
export type Metrics = Record<MetricField, number | null>;

/**
 * The metrics of a delivery, in the filters' units: spent, cpc, cpm (per 1,000 impressions) and cost_per_result in
 * minor units (not rounded), ctr in percent. cpc is null without clicks, cpm and ctr without impressions,
 * cost_per_result without results.
 */
export function metricsOf(delivery: Delivery): Metrics {
  const { impressions, clicks, spend, results } = delivery;
  const ratio = (numerator: number, denominator: number) => (denominator > 0 ? numerator / denominator : null);
  return {
    spent: spend,
    impressions,
    clicks,
    results,
    cpc: ratio(spend, clicks),
    cpm: ratio(spend * 1000, impressions),
    cost_per_result: ratio(spend, results),
    ctr: ratio(clicks * 100, impressions),
  };
}

/**
 * Whether a metric passes a filter: exact comparisons, ranges with both ends included. A null metric (a ratio
 * without its denominator: no cpc without clicks) passes nothing, NOT_EQUAL and NOT_IN_RANGE included, so a rule
 * never acts on a value that does not exist.
 */
export function filterPasses(filter: MetricFilter, value: number | null): boolean {
  if (value === null) return false;
  switch (filter.operator) {
    case 'GREATER_THAN':
      return value > filter.value;
    case 'LESS_THAN':
      return value < filter.value;
    case 'EQUAL':
      return value === filter.value;
    case 'NOT_EQUAL':
      return value !== filter.value;
    case 'IN_RANGE':
      return value >= filter.value[0] && value <= filter.value[1];
    case 'NOT_IN_RANGE':
      return value < filter.value[0] || value > filter.value[1];
  }
}

/** An object of the rule's entity type, as the caller read it; adSetId null for ad sets and campaigns. */
export interface RuleObject {
  id: string;
  name: string;
  effectiveStatus: string;
  campaignId: string;
  adSetId: string | null;
}

const idPasses = (filter: IdFilter | null, id: string | null) => filter === null || (id !== null && filter.ids.includes(id)) === (filter.operator === 'IN');

function metadataPasses(filter: MetadataFilter, object: RuleObject): boolean {
  if (filter.field === 'name') return object.name.toLowerCase().includes(filter.value.toLowerCase()) === (filter.operator === 'CONTAIN');
  return isOneOf(filter.value, object.effectiveStatus) === (filter.operator === 'IN');
}

/**
 * Whether an object matches a rule: every filter passes (all are ANDed), the trigger counted as one more filter.
 * The caller passes objects of the rule's entity type and their metrics over the rule's time preset (presetDays);
 * entity_type and time_preset are not looked at here. Name filters ignore case.
 */
export function objectMatches(rule: CheckedRule, object: RuleObject, metrics: Metrics): boolean {
  const evaluation = rule.evaluation;
  if (evaluation.ids !== null && !evaluation.ids.includes(object.id)) return false;
  if (!idPasses(evaluation.campaignIds, object.campaignId) || !idPasses(evaluation.adSetIds, object.adSetId)) return false;
  if (![...evaluation.nameFilters, ...evaluation.statusFilters].every((filter) => metadataPasses(filter, object))) return false;
  if (!evaluation.metricFilters.every((filter) => filterPasses(filter, metrics[filter.field]))) return false;
  const trigger = evaluation.trigger;
  if (trigger === null) return true;
  return isMetricFilter(trigger) ? filterPasses(trigger, metrics[trigger.field]) : metadataPasses(trigger, object);
}

/** Rounds half away from zero: 2.5 -> 3, -2.5 -> -3 (after clearing float noise: 1500 * 10.1 / 100 is 151.5). */
function roundHalfAway(value: number): number {
  const cleaned = Math.round(Math.abs(value) * 1e6) / 1e6;
  return Math.sign(value) * Math.round(cleaned);
}

/**
 * The budget after a change, in minor units: PERCENTAGE changes by that percent of the current budget, the change
 * rounded half away from zero to a whole minor unit (+1% and -1% of 250 are +3 and -3); ACCOUNT_CURRENCY adds the
 * amount. The limit is a ceiling for increases and a floor for decreases (it never moves the budget the other
 * way), and a budget never goes below 1. null when the budget would not change (already at the limit, or a change
 * that rounds to nothing): there is nothing to do.
 */
export function budgetAfterChange(current: number, change: BudgetChange): number | null {
  const delta = change.unit === 'PERCENTAGE' ? roundHalfAway((current * change.amount) / 100) : change.amount;
  let next = current + delta;
  if (change.amount > 0) {
    if (change.limit !== null) next = Math.min(next, change.limit);
    next = Math.max(next, current);
  } else {
    if (change.limit !== null) next = Math.max(next, change.limit);
    next = Math.min(Math.max(next, 1), current);
  }
  return next === current ? null : next;
}

/**
 * Whether the rule may act on an object again: never acted on, no action_frequency, or at least that many minutes
 * since its last action on the object.
 */
export function actionAllowed(lastActionAt: Date | null, now: Date, actionFrequencyMinutes: number | null): boolean {
  if (lastActionAt === null || actionFrequencyMinutes === null) return true;
  return now.getTime() - lastActionAt.getTime() >= actionFrequencyMinutes * 60_000;
}

// ---------------------------------------------------------------------------------------------------------------
// schedule

/**
 * The schedule of TRIGGER rules, which have none of their own: the platform checks triggers as statistics change,
 * the caller checks them every half hour (latestRunAt of this, isDue, then objectMatches with the trigger).
 */
export const TRIGGER_SCHEDULE: CheckedSchedule = { type: 'SEMI_HOURLY', entries: [] };

/** The schedule a rule runs on: its own, or TRIGGER_SCHEDULE for a TRIGGER rule. */
export const runScheduleOf = (rule: CheckedRule): CheckedSchedule => rule.schedule ?? TRIGGER_SCHEDULE;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Wall times this far past now's are not looked up: no first occurrence of them can lie before now (fall-backs repeat at most 2 hours). */
const WALL_SLACK_MS = 6 * 60 * MINUTE_MS;

/** A formatter per time zone, as windows.ts caches them: building one costs far more than formatting with it. */
const wallFormatters = new Map<string, Intl.DateTimeFormat>();

/** The local wall time of an instant, as the milliseconds of a UTC clock showing that time (seconds kept, milliseconds dropped). */
function wallOf(timeZone: string, ms: number): number {
  let formatter = wallFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallFormatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(new Date(ms));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
}

const offsetAt = (timeZone: string, ms: number) => wallOf(timeZone, ms) - Math.floor(ms / 1000) * 1000;

/**
 * The first instant a local wall time occurs (the earlier of a fall-back's two), or null when it does not occur
 * (skipped by a spring-forward; in zones that spring forward at midnight, America/Santiago, that day's midnight).
 * The offsets a day around cover any transition near the wall time.
 */
function instantOf(timeZone: string, wall: number): number | null {
  const offsets = new Set([offsetAt(timeZone, wall - DAY_MS), offsetAt(timeZone, wall), offsetAt(timeZone, wall + DAY_MS)]);
  let first: number | null = null;
  for (const offset of offsets) {
    const at = wall - offset;
    if (offsetAt(timeZone, at) === offset && (first === null || at < first)) first = at;
  }
  return first;
}

const everyHalfHour = Array.from({ length: MINUTES_PER_DAY / HALF_HOUR }, (_, i) => i * HALF_HOUR);
const everyHour = Array.from({ length: 24 }, (_, i) => i * 60);

/** The local minutes a schedule runs at on a day of the week (0 Sunday), latest first. */
function minutesOn(schedule: CheckedSchedule, weekday: number): number[] {
  switch (schedule.type) {
    case 'DAILY':
      return [0];
    case 'HOURLY':
      return [...everyHour].reverse();
    case 'SEMI_HOURLY':
      return [...everyHalfHour].reverse();
    case 'CUSTOM': {
      const minutes = new Set<number>();
      for (const entry of schedule.entries) {
        if (entry.days !== null && !entry.days.includes(weekday)) continue;
        if (entry.startMinute === null) everyHalfHour.forEach((minute) => minutes.add(minute));
        else if (entry.endMinute === null) minutes.add(entry.startMinute);
        else for (let minute = entry.startMinute; minute <= entry.endMinute; minute += HALF_HOUR) minutes.add(minute);
      }
      return [...minutes].sort((a, b) => b - a);
    }
  }
}

/**
 * The most recent instant at or before `now` the schedule runs at, in the account's IANA time zone: DAILY at
 * local midnight, HOURLY at each local :00, SEMI_HOURLY at each local :00 and :30, CUSTOM at its entries' times
 * (see ScheduleEntry). A local time a spring-forward skips does not run; one a fall-back repeats runs at its first
 * occurrence only. Looks back SCHEDULE_SEARCH_DAYS days; null when nothing runs in them (or no schedule).
 */
export function latestRunAt(schedule: CheckedSchedule | null, timeZone: string, now: Date): Date | null {
  if (schedule === null) return null;
  const nowMs = now.getTime();
  const nowWall = wallOf(timeZone, nowMs);
  const today: Day = new Date(nowWall).toISOString().slice(0, 10);
  for (let back = 0; back <= SCHEDULE_SEARCH_DAYS; back++) {
    const day = addDays(today, -back);
    const midnight = Date.parse(`${day}T00:00:00Z`);
    // Walls are visited latest first and first occurrences keep their order, so the first one at or before now is the latest.
    for (const minute of minutesOn(schedule, new Date(midnight).getUTCDay())) {
      const wall = midnight + minute * MINUTE_MS;
      if (wall > nowWall + WALL_SLACK_MS) continue;
      const at = instantOf(timeZone, wall);
      if (at !== null && at <= nowMs) return new Date(at);
    }
  }
  return null;
}

/**
 * Whether a rule is due: it has a scheduled instant (latestRunAt) after the one it last ran for. The caller stores
 * that instant (the period), not the time it ran, so a rule missed while the service was down runs once when it is
 * back, not once per missed period.
 */
export function isDue(lastRunAt: Date | null, latest: Date | null): boolean {
  return latest !== null && (lastRunAt === null || latest.getTime() > lastRunAt.getTime());
}
