import { camel } from '../db/rows.ts';
import { paramError } from '../graph-api/params.ts';
import { graphParams } from '../graphql/helpers.ts';
import type {
  AdLabel,
  AdSetScheduleEntry,
  AttributionSpec,
  BidConstraints,
  FrequencyControlSpec,
  PromotedObject,
  Targeting,
} from '../graphql/__generated__/resolvers-types.ts';

/**
 * The one mapping between the ad set's nested specs as GraphQL types them (TargetingInput, PromotedObject ...:
 * camelCase) and as the store keeps them and /v24.0 serves them (the Graph API's snake_case). Every key of
 * these types is the camelCase of its Graph key and nothing else, so the mapping is a rename of keys at every
 * depth, and graphql/errors.ts argumentPath finds a rule's `targeting.geo_locations.countries` as
 * `input.targeting.geoLocations.countries` by the same rule. The domain's rules read the Graph shape only.
 */

/** Create and update parameters whose values are typed input objects (or lists of them, or of BigInt). */
const TYPED_PARAMS = [
  'targeting',
  'promoted_object',
  'bid_constraints',
  'adlabels',
  'adset_schedule',
  'attribution_spec',
  'frequency_control_specs',
  'time_based_ad_rotation_id_blocks',
  'time_based_ad_rotation_intervals',
] as const;

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A typed input value in the Graph shape: keys in snake_case at every depth; a null field is not sent (a form
 * sends back the nulls it read), BigInt list items as numbers (decimal strings beyond 2^53, which the rules refuse).
 */
function toGraphShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toGraphShape);
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== null && field !== undefined) out[snake(key)] = toGraphShape(field);
  return out;
}

/** A stored spec with its keys in camelCase at every depth (GraphQL reads the fields its type names). */
function fromGraphShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromGraphShape);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [camel(key), fromGraphShape(field)]));
}

/**
 * GraphQL's ad set input as the write services' Graph parameters: top-level names by graphParams, the typed
 * specs in the Graph shape. sourceAdSetId is source_adset_id (its deprecated spelling sourceAdsetId too).
 */
export function adSetParams(input: object): Record<string, unknown> {
  const { sourceAdSetId, sourceAdsetId } = input as { sourceAdSetId?: string | null; sourceAdsetId?: string | null };
  if (sourceAdSetId != null && sourceAdsetId != null && String(sourceAdSetId) !== String(sourceAdsetId)) {
    throw paramError('source_adset_id', 'Param source_adset_id is given twice (sourceAdSetId and sourceAdsetId) with different values: send sourceAdSetId');
  }
  const params = graphParams(input, { sourceAdSetId: 'source_adset_id', sourceAdsetId: 'source_adset_id' });
  if (sourceAdSetId != null) params.source_adset_id = sourceAdSetId;
  for (const name of TYPED_PARAMS) if (params[name] !== undefined) params[name] = toGraphShape(params[name]);
  return params;
}

/** A typed spec argument of its own (estimateDelivery's targeting and promotedObject) in the Graph shape. */
export const graphSpec = (input: unknown): unknown => (input === null || input === undefined ? undefined : toGraphShape(input));

// --- Reading: the stored Graph shape as the output types ---------------------------------------------------

/** Entries of a list that name objects by id: the Graph API takes a bare id too (custom_audiences: ["1"]). */
const ENTITY_LISTS = new Set([
  'customAudiences',
  'excludedCustomAudiences',
  'interests',
  'behaviors',
  'lifeEvents',
  'industries',
  'income',
  'familyStatuses',
  'workPositions',
]);

/** Fields an output type requires: an entry stored without them (written through /v24.0, which keeps any object) is not shown. */
const REQUIRED_KEYS: Record<string, readonly string[]> = {
  regions: ['key'],
  zips: ['key'],
  cities: ['key'],
  attributionSpec: ['eventType', 'windowDays'],
  frequencyControlSpecs: ['event', 'intervalDays', 'maxFrequency'],
  adsetSchedule: ['startMinute', 'endMinute', 'days'],
};

/** A read spec made fit for its type: bare ids as {id}, entries without their required fields left out. */
function fitted(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) {
    const entries = ENTITY_LISTS.has(key)
      ? value.map((entry) => (typeof entry === 'string' || typeof entry === 'number' ? { id: String(entry) } : entry))
      : value;
    const required = ENTITY_LISTS.has(key) ? ['id'] : REQUIRED_KEYS[key];
    const kept = required
      ? entries.filter((entry) => isPlainObject(entry) && required.every((name) => entry[name] !== undefined && entry[name] !== null))
      : entries;
    return kept.map((entry) => fitted(entry));
  }
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, fitted(field, name)]));
}

const read = (stored: unknown, key: string) => (stored === null || stored === undefined ? null : fitted(fromGraphShape(stored), key));
const readObject = (stored: unknown) => (isPlainObject(stored) ? (read(stored, '') as Record<string, unknown>) : null);
const readList = (stored: unknown, key: string) => (Array.isArray(stored) ? (read(stored, key) as unknown[]) : null);

/** targeting: every ad set has one (it is required); geoLocations reads empty rather than missing. */
export function targetingOf(stored: unknown): Targeting {
  const targeting = readObject(stored) ?? {};
  return { ...targeting, geoLocations: isPlainObject(targeting.geoLocations) ? targeting.geoLocations : {} } as Targeting;
}

export const promotedObjectOf = (stored: unknown) => readObject(stored) as PromotedObject | null;
export const bidConstraintsOf = (stored: unknown) => readObject(stored) as BidConstraints | null;
export const adLabelsOf = (stored: unknown) => readList(stored, 'adlabels') as AdLabel[] | null;
export const adSetScheduleOf = (stored: unknown) => readList(stored, 'adsetSchedule') as AdSetScheduleEntry[] | null;
export const attributionSpecOf = (stored: unknown) => readList(stored, 'attributionSpec') as AttributionSpec[] | null;
export const frequencyControlSpecsOf = (stored: unknown) => readList(stored, 'frequencyControlSpecs') as FrequencyControlSpec[] | null;
