import type { Edge } from '../authz/edges.ts';
import type { ActivityFilter, EdgeFilter } from '../ads/edges.ts';
import { ACTIVITY_CATEGORIES, type ActivityCategory } from '../ads/rules/activity-events.ts';
import type { CommentFilter } from '../comments/edges.ts';
import type { EstimateRequest } from '../ads/estimates.ts';
import { boolean, dateTime, decodeJsonText, oneOf, paramError } from './params.ts';
import type { ReactionFilter } from '../comments/edges.ts';
import { REACTION_TYPES } from '../comments/store.ts';
import type { GovernedFilter } from '../ads/ad-rules.ts';

/**
 * The filters /v24.0 edges read from a call's parameters (or from an edge's modifiers in `fields`), as the
 * domain's edge objects take them.
 */
export type FilterReader = (source: Record<string, unknown>) => unknown;

/** Edge filters by the (frozen) modifiers they were read from, and the reader: read once, not at every parent. */
const filtersOfModifiers = new WeakMap<object, Map<FilterReader, unknown>>();

const isPrimitive = (value: unknown) => value === null || (typeof value !== 'object' && typeof value !== 'function');

/**
 * Whether `filter` holds only values and lists of values (effective statuses, a comment order), frozen then so that
 * sharing it between calls cannot share a change. Anything deeper (an estimate's targeting, an activity window's
 * dates) is read anew each time.
 */
function freezeIfFlat(filter: unknown): boolean {
  if (isPrimitive(filter)) return true;
  if (Object.getPrototypeOf(filter) !== Object.prototype) return false;
  const values = Object.values(filter as object);
  if (!values.every((value) => isPrimitive(value) || (Array.isArray(value) && value.every(isPrimitive)))) return false;
  for (const value of values) if (Array.isArray(value)) Object.freeze(value);
  Object.freeze(filter);
  return true;
}

/** The filter `read` finds in an edge's modifiers. Modifiers of a parsed-once selection (parsedFields) are read once. */
export function modifiersFilter(read: FilterReader, modifiers: Record<string, string>): unknown {
  if (!Object.isFrozen(modifiers)) return read(modifiers);
  let byReader = filtersOfModifiers.get(modifiers);
  if (byReader?.has(read)) return byReader.get(read);
  const filter = read(modifiers);
  if (freezeIfFlat(filter)) {
    if (!byReader) filtersOfModifiers.set(modifiers, (byReader = new Map()));
    byReader.set(read, filter);
  }
  return filter;
}

/**
 * effective_status of the ad object edges: a JSON list (`["ACTIVE","PAUSED"]`, as the SDKs send it), or a comma
 * list (`ACTIVE,PAUSED`, as people type it). Only edges of campaigns, ad sets and ads take it.
 */
export const effectiveStatusFilter =
  (edge: Pick<Edge<unknown, { id: string }>, 'effectiveStatuses'>): FilterReader =>
  (source): EdgeFilter | undefined => {
    const raw = source.effective_status;
    if (raw === undefined || raw === null || raw === '') return undefined;
    const value = decodeJsonText(raw, 'effective_status');
    const list = Array.isArray(value)
      ? value
      : typeof value === 'string'
        ? value
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean)
        : null;
    if (!list || list.some((v) => typeof v !== 'string')) throw paramError('effective_status', 'Param effective_status must be a list of statuses');
    if (!edge.effectiveStatuses) throw paramError('effective_status', 'Param effective_status is not supported on this edge');
    return { effectiveStatus: list as string[] };
  };

/** filter (toplevel, stream) and order (chronological, reverse_chronological) of comment edges. */
export const commentFilter: FilterReader = (source): CommentFilter => {
  const read = (name: 'filter' | 'order') => {
    const value = source[name];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') throw paramError(name, `Param ${name} must be a string`);
    return value;
  };
  return { filter: read('filter'), order: read('order') };
};

/**
 * What a delivery estimate edge reads: targeting_spec and promoted_object (JSON objects), optimization_goal, and
 * daily_budget (minor units, a whole number), each optional here (the account's edges require what they need).
 */
export const estimateRequest: FilterReader = (source): EstimateRequest => {
  const object = (name: 'targeting_spec' | 'promoted_object') => {
    const raw = source[name];
    if (raw === undefined || raw === null || raw === '') return undefined;
    const value = decodeJsonText(raw, name);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw paramError(name, `Param ${name} must be a JSON object`);
    return value;
  };
  const request: EstimateRequest = {};
  const targeting = object('targeting_spec');
  if (targeting !== undefined) request.targeting = targeting;
  const promotedObject = object('promoted_object');
  if (promotedObject !== undefined) request.promotedObject = promotedObject;
  const goal = source.optimization_goal;
  if (goal !== undefined && goal !== null && goal !== '') {
    if (typeof goal !== 'string') throw paramError('optimization_goal', 'Param optimization_goal must be a string');
    request.optimizationGoal = goal;
  }
  const budget = source.daily_budget;
  if (budget !== undefined && budget !== null && budget !== '') {
    const amount = typeof budget === 'number' ? budget : typeof budget === 'string' && /^\d{1,15}$/.test(budget) ? Number(budget) : NaN;
    if (!Number.isSafeInteger(amount) || amount < 0)
      throw paramError('daily_budget', 'Param daily_budget must be a whole number of minor units of the account currency');
    request.dailyBudget = amount;
  }
  return request;
};

/**
 * since and until of a change history edge (Unix seconds or ISO 8601; since inclusive, until exclusive), and
 * category (a JSON list, as the SDKs send it, or a comma list) of the platform's activity categories.
 */
export const activityFilter: FilterReader = (source): ActivityFilter => {
  const filter: ActivityFilter = {};
  const present = (value: unknown) => value !== undefined && value !== null && value !== '';
  if (present(source.since)) filter.since = dateTime(source.since, 'since');
  if (present(source.until)) filter.until = dateTime(source.until, 'until');
  if (present(source.category)) {
    const value = decodeJsonText(source.category, 'category');
    const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',').map((v) => v.trim()) : null;
    const bad = list?.find((v) => typeof v !== 'string' || !(ACTIVITY_CATEGORIES as readonly string[]).includes(v));
    if (!list || list.length === 0 || bad !== undefined) {
      throw paramError(
        'category',
        `Param category must be a list of {${ACTIVITY_CATEGORIES.join(', ')}}${bad !== undefined ? `, got ${JSON.stringify(bad)}` : ''}`,
      );
    }
    filter.categories = list as ActivityCategory[];
  }
  return filter;
};

/** `all` of `/<ad set>/adrules_governed`: every rule of the account, instead of those governing the ad set. */
export const governedFilter: FilterReader = (source): GovernedFilter => {
  const raw = source.all;
  return raw === undefined || raw === null || raw === '' ? {} : { all: boolean(raw, 'all') };
};

/** `type` of a reactions edge: one of the reaction types, or all of them. */
export const reactionFilter: FilterReader = (source): ReactionFilter => {
  const raw = source.type;
  return raw === undefined || raw === null || raw === '' ? {} : { type: oneOf(REACTION_TYPES)(raw, 'type') };
};
