import type { Knex } from 'knex';
import type { RequestContext } from '../context/index.ts';
import { can, type ResourceType } from '../authz/policy.ts';
import { requireSignedIn } from '../authz/guards.ts';
import { dialect, type Db } from '../db/index.ts';
import { isNumericId } from '../db/ids.ts';
import { insertObjects } from '../db/objects.ts';
import type { TableMapping } from '../db/rows.ts';
import { DomainError, forbidden, notFound } from '../errors/index.ts';
import { findAd, findAdAccount, findCampaign, parseAdAccountId } from './service.ts';
import {
  ads, campaigns, customAudiences, customConversions,
  type AdAccountRecord, type AdRecord, type CampaignRecord, type CustomAudienceRecord, type CustomConversionRecord, type ObjectStatus, RESTRICTED_LOOKALIKE } from './store.ts';

/**
 * Writes of the objects ad sets stand on (DECISIONS section 8): campaigns, ads, custom audiences and custom
 * conversions. Every function takes the raw parameters of the Graph-style API, snake_case and already decoded
 * (the `/v24.0` layer JSON-decodes form fields; GraphQL converts its input), checks each one the way the Graph
 * API does, authorizes (invisible parent: NOT_FOUND; visible but not allowed: FORBIDDEN, code 200), and writes
 * in one transaction. Unknown parameters are ignored, as the Graph API ignores them.
 */
export type Params = Record<string, unknown>;

// --- Parameter checks ------------------------------------------------------------------------------------
// Messages are the Graph API's without the "(#100) " prefix, which the `/v24.0` envelope adds.

/** Error 100 naming the parameter. */
export const paramError = (field: string, message: string) =>
  new DomainError('BAD_USER_INPUT', message, { field, graph: { code: 100 } });

export const missingParam = (name: string) => paramError(name, `The parameter ${name} is required`);

type Reader<T> = (value: unknown, name: string) => T;

const absent = (value: unknown) => value === undefined || value === null;

/** The parameter's checked value, or undefined when it was not sent (null counts as not sent). */
export function optionalParam<T>(params: Params, name: string, read: Reader<T>): T | undefined {
  const value = params[name];
  return absent(value) ? undefined : read(value, name);
}

/** The parameter's checked value; absent or an empty string is "The parameter <name> is required". */
export function requiredParam<T>(params: Params, name: string, read: Reader<T>): T {
  const value = params[name];
  if (absent(value) || (typeof value === 'string' && value.trim() === '')) throw missingParam(name);
  return read(value, name);
}

/** True when the parameter was sent (not undefined or null). */
export const given = (params: Params, name: string) => !absent(params[name]);

const characters = (value: string) => [...value].length;

/** A string of at most `max` characters (counted in code points, as PostgreSQL counts them), without NUL. */
export const text = (options: { max: number; nonEmpty?: boolean }): Reader<string> => (value, name) => {
  if (typeof value !== 'string') throw paramError(name, `Param ${name} must be a string`);
  if (options.nonEmpty && value.trim() === '') throw missingParam(name);
  if (characters(value) > options.max) throw paramError(name, `Param ${name} must be at most ${options.max} characters`);
  if (value.includes('\u0000')) throw paramError(name, `Param ${name} must not contain NUL characters`);
  return value;
};

export const oneOf = <const T extends string>(values: readonly T[]): Reader<T> => (value, name) => {
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
    throw paramError(name, `Param ${name} must be one of {${values.join(', ')}}`);
  }
  return value as T;
};

const INT64_MAX = 2n ** 63n - 1n;

/** A whole number (JSON number, numeric string or bigint) within [min, max]; returned as a decimal string. */
export const integer = (options: { min?: bigint; max?: bigint } = {}): Reader<string> => (value, name) => {
  let parsed: bigint | undefined;
  if (typeof value === 'bigint') parsed = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) parsed = BigInt(value);
  else if (typeof value === 'string' && /^-?[0-9]{1,20}$/.test(value.trim())) parsed = BigInt(value.trim());
  if (parsed === undefined) throw paramError(name, `Param ${name} must be an integer`);
  const min = options.min ?? -INT64_MAX - 1n;
  const max = options.max ?? INT64_MAX;
  if (parsed < min || parsed > max) {
    const message = min === 1n && max === INT64_MAX ? `Param ${name} must be a positive integer` : `Param ${name} must be between ${min} and ${max}`;
    throw paramError(name, message);
  }
  return parsed.toString();
};

/** A positive int64: budgets and amounts in the currency's minor unit. */
export const positiveInteger = integer({ min: 1n });

/** A small integer returned as a number. */
export const smallInteger = (min: number, max: number): Reader<number> => (value, name) => Number(integer({ min: BigInt(min), max: BigInt(max) })(value, name));

/** A number (JSON number or numeric string) within [min, max]. */
export const decimal = (min: number, max: number): Reader<number> => (value, name) => {
  const parsed = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(parsed)) throw paramError(name, `Param ${name} must be a number`);
  if (parsed < min || parsed > max) throw paramError(name, `Param ${name} must be between ${min} and ${max}`);
  return parsed;
};

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
const MAX_UNIX_SECONDS = 253_402_300_799; // 9999-12-31T23:59:59Z

/**
 * A date-time as the Graph API takes it: ISO 8601 (`2026-01-05T10:00:00+0000`, `...Z`, `...+01:00`; without an
 * offset it is UTC; a date alone is its midnight UTC) or Unix seconds (number or numeric string).
 */
export const dateTime: Reader<Date> = (value, name) => {
  const invalid = () => paramError(name, `Param ${name} must be a valid date-time (ISO 8601 or Unix seconds)`);
  if (typeof value === 'number' || (typeof value === 'string' && /^[0-9]{1,12}$/.test(value.trim()))) {
    const seconds = Number(value);
    if (!Number.isSafeInteger(seconds) || seconds < 0 || seconds > MAX_UNIX_SECONDS) throw invalid();
    return new Date(seconds * 1000);
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw invalid();
    return value;
  }
  if (typeof value !== 'string') throw invalid();
  const match = ISO_8601.exec(value.trim());
  if (!match) throw invalid();
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', offset = 'Z'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, Number(fraction.padEnd(3, '0').slice(0, 3)));
  const check = new Date(utc);
  // Date.UTC rolls 2026-02-30 over to March: a date that does not round-trip does not exist.
  if (year < 1970 || check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    throw invalid();
  }
  let offsetMinutes = 0;
  if (offset !== 'Z') {
    const digits = offset.slice(1).replace(':', '');
    const hours = Number(digits.slice(0, 2));
    const minutes = Number(digits.slice(2) || '0');
    if (hours > 23 || minutes > 59) throw invalid();
    offsetMinutes = (offset.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
  }
  return new Date(utc - offsetMinutes * 60_000);
};

const MAX_JSON_CHARACTERS = 65_536;

function jsonText(value: unknown, name: string): string {
  const serialized = JSON.stringify(value);
  if (serialized.length > MAX_JSON_CHARACTERS) throw paramError(name, `Param ${name} must be at most ${MAX_JSON_CHARACTERS} characters of JSON`);
  // PostgreSQL cannot store NUL in text or JSON.
  if (serialized.includes('\\u0000')) throw paramError(name, `Param ${name} must not contain NUL characters`);
  return serialized;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** A JSON object; a string holding a JSON object is accepted too (form fields that arrive undecoded). */
export const jsonObject: Reader<Record<string, unknown>> = (value, name) => {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = undefined;
    }
  }
  if (!isPlainObject(parsed)) throw paramError(name, `Param ${name} must be a JSON object`);
  jsonText(parsed, name);
  return parsed;
};

/** A list (a JSON array, or a string holding one); each element checked as `<name>[i]`, the error naming `name`. */
export const list = <T>(item: Reader<T>, options: { max?: number } = {}): Reader<T[]> => (value, name) => {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = undefined;
    }
  }
  if (!Array.isArray(parsed)) throw paramError(name, `Param ${name} must be an array`);
  if (options.max !== undefined && parsed.length > options.max) throw paramError(name, `Param ${name} must have at most ${options.max} elements`);
  return parsed.map((element, i) => {
    try {
      return item(element, `${name}[${i}]`);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'BAD_USER_INPUT') throw paramError(name, error.message);
      throw error;
    }
  });
};

/** A Graph object id: a numeric string or an integer. */
export const graphId: Reader<string> = (value, name) => {
  const id = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!isNumericId(id)) throw paramError(name, `Param ${name} must be a valid ID`);
  return id;
};

// --- Enumerations -------------------------------------------------------------------------------------------

export const OBJECTIVES = [
  'OUTCOME_APP_PROMOTION', 'OUTCOME_AWARENESS', 'OUTCOME_ENGAGEMENT', 'OUTCOME_LEADS', 'OUTCOME_SALES', 'OUTCOME_TRAFFIC',
] as const;
export const SPECIAL_AD_CATEGORIES = [
  'NONE', 'EMPLOYMENT', 'HOUSING', 'CREDIT', 'ISSUES_ELECTIONS_POLITICS', 'ONLINE_GAMBLING_AND_GAMING', 'FINANCIAL_PRODUCTS_SERVICES',
] as const;
export const BID_STRATEGIES = ['LOWEST_COST_WITHOUT_CAP', 'LOWEST_COST_WITH_BID_CAP', 'COST_CAP', 'LOWEST_COST_WITH_MIN_ROAS'] as const;
export const STATUSES = ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED'] as const satisfies readonly ObjectStatus[];
/** "Only ACTIVE and PAUSED are valid during creation. Other statuses can be used for update." (Graph API) */
export const CREATE_STATUSES = ['ACTIVE', 'PAUSED'] as const satisfies readonly ObjectStatus[];
export const AUDIENCE_SUBTYPES = [
  'CUSTOM', 'PRIMARY', 'WEBSITE', 'APP', 'OFFLINE_CONVERSION', 'CLAIM', 'MANAGED', 'PARTNER', 'VIDEO', 'LOOKALIKE', 'ENGAGEMENT',
  'BAG_OF_ACCOUNTS', 'STUDY_RULE_AUDIENCE', 'FOX', 'MEASUREMENT', 'REGULATED_CATEGORIES_AUDIENCE', 'BIDDING', 'EXCLUSION',
  'MESSENGER_SUBSCRIBER_LIST',
] as const;
export const LOOKALIKE_TYPES = ['similarity', 'reach', 'custom_ratio'] as const;
export const CUSTOM_EVENT_TYPES = [
  'ADD_PAYMENT_INFO', 'ADD_TO_CART', 'ADD_TO_WISHLIST', 'COMPLETE_REGISTRATION', 'CONTENT_VIEW', 'INITIATED_CHECKOUT', 'LEAD',
  'PURCHASE', 'SEARCH', 'CONTACT', 'CUSTOMIZE_PRODUCT', 'DONATE', 'FIND_LOCATION', 'SCHEDULE', 'START_TRIAL', 'SUBMIT_APPLICATION',
  'SUBSCRIBE', 'LISTING_INTERACTION', 'FACEBOOK_SELECTED', 'OTHER',
] as const;

/** At most this many ads that are neither ARCHIVED nor DELETED in one ad set (the specification's limit). */
export const MAX_ADS_PER_AD_SET = 50;

// --- Authorization and locking ------------------------------------------------------------------------------

/**
 * The account a create goes into: invisible or missing is NOT_FOUND (named as the caller wrote it), visible
 * but without `create` on `type` in its organization is FORBIDDEN.
 */
async function accountForCreate(ctx: RequestContext, accountId: string, type: ResourceType, what: string): Promise<AdAccountRecord> {
  requireSignedIn(ctx);
  const id = parseAdAccountId(String(accountId));
  const account = await findAdAccount(ctx, id);
  if (!account) throw notFound('Ad account', String(accountId));
  if (!can(ctx.viewer, 'create', { type, organizationId: account.organizationId })) {
    throw forbidden(`Permissions error: you may not create ${what} in ad account act_${account.id}`);
  }
  return account;
}

/** Write permission on an object the caller can see (the find already answered NOT_FOUND for the rest). */
function requireAllowed(ctx: RequestContext, action: 'update' | 'delete', type: ResourceType, record: { organizationId: string; id: string }, what: string) {
  if (!can(ctx.viewer, action, { type, organizationId: record.organizationId })) {
    throw forbidden(`Permissions error: you may not ${action} ${what} ${record.id}`);
  }
}

/**
 * Reads a row inside a transaction and holds it until the transaction ends, so concurrent writes to the same
 * object (or, for an ad set, to its list of ads) go one after the other. PostgreSQL: `FOR NO KEY UPDATE`
 * (what an UPDATE takes; it leaves foreign-key checks of inserted children free, so no deadlock with them).
 * SQLite: a no-op write first takes the database's write lock, as `BEGIN IMMEDIATE` would, so the reads that
 * follow cannot go stale before this transaction writes (one process already serializes on its single
 * connection; this also holds across processes).
 */
export async function lockRow(db: Db, trx: Knex.Transaction, table: string, id: string): Promise<Record<string, unknown> | undefined> {
  if (dialect(db) === 'postgres') return trx(table).where({ id }).forNoKeyUpdate().first();
  await trx(table).where({ id }).update({ updated_time: trx.raw('??', ['updated_time']) });
  return trx(table).where({ id }).first();
}

async function lockRecord<T>(ctx: RequestContext, trx: Knex.Transaction, mapping: TableMapping<T>, id: string): Promise<T> {
  const row = await lockRow(ctx.db, trx, mapping.table, id);
  // Found a moment ago; only a concurrent hard delete (an account removed) can take it away.
  if (!row) throw notFound(mapping.table, id);
  return mapping.fromRow(row);
}

/** Names every known parameter the caller sent, in the order given. */
const sentOf = (params: Params, known: readonly string[]) => known.filter((name) => given(params, name));

/**
 * The specification's state table, applied to campaigns and ads as to ad sets: a DELETED object accepts only
 * `name`; an ARCHIVED one only `name` and `status` ARCHIVED or DELETED. Anything else is error 100 naming it.
 */
function assertStateAllows(kind: string, id: string, current: ObjectStatus, sent: string[], status: ObjectStatus | undefined): void {
  if (current !== 'DELETED' && current !== 'ARCHIVED') return;
  const allowedStatuses: ObjectStatus[] = current === 'DELETED' ? ['DELETED'] : ['ARCHIVED', 'DELETED'];
  for (const name of sent) {
    if (name === 'name') continue;
    if (name === 'status' && status && allowedStatuses.includes(status)) continue;
    const rule = current === 'DELETED' ? 'only name may be changed' : 'only name may be changed, and status only to DELETED';
    throw paramError(name, `Param ${name} cannot be changed: ${kind} ${id} is ${current}, and ${rule}`);
  }
}

// --- Campaigns ----------------------------------------------------------------------------------------------

const CAMPAIGN_PARAMS = [
  'name', 'objective', 'status', 'special_ad_categories', 'bid_strategy', 'daily_budget', 'lifetime_budget', 'start_time', 'stop_time',
] as const;

interface CampaignChanges {
  name?: string;
  objective?: string;
  status?: ObjectStatus;
  specialAdCategories?: string[];
  bidStrategy?: string;
  dailyBudget?: string;
  lifetimeBudget?: string;
  startTime?: Date;
  stopTime?: Date;
}

function readCampaignParams(params: Params, mode: 'create' | 'update'): CampaignChanges {
  const read = mode === 'create' ? requiredParam : optionalParam;
  const changes: CampaignChanges = {
    name: read(params, 'name', text({ max: 400, nonEmpty: true })),
    objective: read(params, 'objective', oneOf(OBJECTIVES)),
    status: optionalParam(params, 'status', oneOf(mode === 'create' ? CREATE_STATUSES : STATUSES)),
    specialAdCategories: read(params, 'special_ad_categories', list(oneOf(SPECIAL_AD_CATEGORIES), { max: SPECIAL_AD_CATEGORIES.length })),
    bidStrategy: optionalParam(params, 'bid_strategy', oneOf(BID_STRATEGIES)),
    dailyBudget: optionalParam(params, 'daily_budget', positiveInteger),
    lifetimeBudget: optionalParam(params, 'lifetime_budget', positiveInteger),
    startTime: optionalParam(params, 'start_time', dateTime),
    stopTime: optionalParam(params, 'stop_time', dateTime),
  };
  const categories = changes.specialAdCategories;
  if (categories) {
    if (categories.includes('NONE') && categories.length > 1) {
      throw paramError('special_ad_categories', 'Param special_ad_categories cannot combine NONE with other categories');
    }
    changes.specialAdCategories = [...new Set(categories)];
  }
  return changes;
}

/** Budget and schedule rules on the values the campaign will have after the write. */
function assertCampaignCoherent(changes: CampaignChanges, after: Pick<CampaignRecord, 'dailyBudget' | 'lifetimeBudget' | 'startTime' | 'stopTime'>): void {
  if (after.dailyBudget !== null && after.lifetimeBudget !== null) {
    const field = changes.lifetimeBudget !== undefined ? 'lifetime_budget' : 'daily_budget';
    throw paramError(field, 'Only one of daily_budget and lifetime_budget may be set on a campaign');
  }
  if (after.startTime && after.stopTime && after.stopTime.getTime() <= after.startTime.getTime()) {
    const field = changes.stopTime !== undefined ? 'stop_time' : 'start_time';
    throw paramError(field, 'Param stop_time must be after start_time');
  }
}

/** POST /act_<ID>/campaigns: a campaign under the account. */
export async function createCampaign(ctx: RequestContext, accountId: string, params: Params): Promise<CampaignRecord> {
  const account = await accountForCreate(ctx, accountId, 'campaign', 'campaigns');
  const changes = readCampaignParams(params ?? {}, 'create');
  const fields = {
    dailyBudget: changes.dailyBudget ?? null, lifetimeBudget: changes.lifetimeBudget ?? null,
    startTime: changes.startTime ?? null, stopTime: changes.stopTime ?? null,
  };
  assertCampaignCoherent(changes, fields);
  const [campaign] = await ctx.db.transaction((trx) =>
    insertObjects<CampaignRecord>(trx, 'campaign', campaigns, [{
      organizationId: account.organizationId, accountId: account.id, name: changes.name!, objective: changes.objective!,
      status: changes.status ?? 'ACTIVE', specialAdCategories: changes.specialAdCategories!, specialAdCategoryCountry: null,
      bidStrategy: changes.bidStrategy ?? null, buyingType: 'AUCTION', spendCap: null, ...fields,
    }]));
  ctx.loaders.ads.campaignById.clear(campaign!.id).prime(campaign!.id, campaign!);
  return campaign!;
}

/** Marks a campaign DELETED with its ad sets and ads, as the Graph API deletes a campaign's children with it. */
async function cascadeCampaignDelete(trx: Knex.Transaction, campaignId: string, now: Date): Promise<void> {
  // Ad sets first, then ads: an ad being created under one of these ad sets holds that ad set's row, and
  // is either committed before the ads update starts (and is deleted with the rest) or sees a DELETED ad set.
  await trx('ad_sets').where({ campaign_id: campaignId }).whereNot({ status: 'DELETED' }).update({ status: 'DELETED', updated_time: now });
  await trx('ads').where({ campaign_id: campaignId }).whereNot({ status: 'DELETED' }).update({ status: 'DELETED', updated_time: now });
}

/** The object a write names: missing or invisible is 404, visible but not allowed is 403. */
async function visibleForWrite<T extends { organizationId: string; id: string }>(
  ctx: RequestContext, type: 'campaign' | 'ad', label: string, id: string, action: 'update' | 'delete',
  find: (ctx: RequestContext, id: string) => Promise<T | null>,
): Promise<T> {
  requireSignedIn(ctx);
  const record = await find(ctx, String(id));
  if (!record) throw notFound(label, String(id));
  requireAllowed(ctx, action, type, record, type);
  return record;
}

const visibleCampaign = (ctx: RequestContext, id: string, action: 'update' | 'delete') => visibleForWrite(ctx, 'campaign', 'Campaign', id, action, findCampaign);

/** POST /<CAMPAIGN_ID>: the same parameters as create (any subset), plus status changes. */
export async function updateCampaign(ctx: RequestContext, campaignId: string, params: Params): Promise<CampaignRecord> {
  const found = await visibleCampaign(ctx, campaignId, 'update');
  params ??= {};
  const changes = readCampaignParams(params, 'update');
  const sent = sentOf(params, CAMPAIGN_PARAMS);
  const updated = await ctx.db.transaction(async (trx) => {
    const current = await lockRecord(ctx, trx, campaigns, found.id);
    assertStateAllows('campaign', current.id, current.status, sent, changes.status);
    if (changes.objective !== undefined && changes.objective !== current.objective) {
      throw paramError('objective', 'Param objective cannot be changed once the campaign is created');
    }
    const after = {
      dailyBudget: changes.dailyBudget ?? current.dailyBudget, lifetimeBudget: changes.lifetimeBudget ?? current.lifetimeBudget,
      startTime: changes.startTime ?? current.startTime, stopTime: changes.stopTime ?? current.stopTime,
    };
    assertCampaignCoherent(changes, after);
    const now = new Date();
    const patch: Partial<CampaignRecord> = { ...definedOnly(changes), updatedTime: now };
    delete patch.objective;
    await trx(campaigns.table).where({ id: current.id }).update(campaigns.toRow(patch));
    if (changes.status === 'DELETED' && current.status !== 'DELETED') await cascadeCampaignDelete(trx, current.id, now);
    return campaigns.fromRow(await trx(campaigns.table).where({ id: current.id }).first());
  });
  ctx.loaders.ads.campaignById.clear(updated.id).prime(updated.id, updated);
  return updated;
}

/** DELETE /<CAMPAIGN_ID>: status DELETED (the campaign stays readable), its ad sets and ads with it. Deleting twice is no error. */
export async function deleteCampaign(ctx: RequestContext, campaignId: string): Promise<void> {
  const found = await visibleCampaign(ctx, campaignId, 'delete');
  await ctx.db.transaction(async (trx) => {
    const current = await lockRecord(ctx, trx, campaigns, found.id);
    if (current.status === 'DELETED') return;
    const now = new Date();
    await trx(campaigns.table).where({ id: current.id }).update({ status: 'DELETED', updated_time: now });
    await cascadeCampaignDelete(trx, current.id, now);
  });
  ctx.loaders.ads.campaignById.clear(found.id);
}

// --- Ads ----------------------------------------------------------------------------------------------------

const AD_PARAMS = ['name', 'adset_id', 'status', 'creative'] as const;

function readAdParams(params: Params, mode: 'create' | 'update') {
  const read = mode === 'create' ? requiredParam : optionalParam;
  return {
    name: read(params, 'name', text({ max: 400, nonEmpty: true })),
    adsetId: read(params, 'adset_id', graphId),
    status: optionalParam(params, 'status', oneOf(mode === 'create' ? CREATE_STATUSES : STATUSES)),
    creative: read(params, 'creative', jsonObject),
  };
}

const wrongAdSet = (accountId: string) => paramError('adset_id', `Param adset_id must be the id of an ad set of ad account act_${accountId}`);

/**
 * POST /act_<ID>/ads: an ad in one of the account's ad sets. The ad set's row is held while its ads are counted
 * and the new one inserted, so the limit of 50 ads that are neither ARCHIVED nor DELETED holds under concurrency.
 */
export async function createAd(ctx: RequestContext, accountId: string, params: Params): Promise<AdRecord> {
  const account = await accountForCreate(ctx, accountId, 'ad', 'ads');
  const input = readAdParams(params ?? {}, 'create');
  const adsetId = input.adsetId!;
  const ad = await ctx.db.transaction(async (trx) => {
    // The ad set is checked under its lock: an id of another type or of another account names no row here.
    const adSet = await lockRow(ctx.db, trx, 'ad_sets', adsetId);
    if (!adSet || String(adSet.account_id) !== account.id) throw wrongAdSet(account.id);
    if (adSet.status === 'DELETED' || adSet.status === 'ARCHIVED') {
      throw paramError('adset_id', `Param adset_id names ad set ${adsetId}, which is ${String(adSet.status)}: ads cannot be added to it`);
    }
    const [{ count }] = (await trx('ads').where({ adset_id: adsetId }).whereNotIn('status', ['ARCHIVED', 'DELETED']).count({ count: '*' })) as [{ count: number | string }];
    if (Number(count) >= MAX_ADS_PER_AD_SET) {
      throw paramError('adset_id', `Ad set ${adsetId} already has ${MAX_ADS_PER_AD_SET} ads that are not archived or deleted, the most an ad set may have. Archive or delete some before adding more`);
    }
    const [created] = await insertObjects<AdRecord>(trx, 'ad', ads, [{
      organizationId: account.organizationId, accountId: account.id, campaignId: String(adSet.campaign_id), adsetId,
      name: input.name!, status: input.status ?? 'ACTIVE', creative: input.creative!, sourceAdId: null,
    }]);
    return created!;
  });
  ctx.loaders.ads.adById.clear(ad.id).prime(ad.id, ad);
  return ad;
}

const visibleAd = (ctx: RequestContext, id: string, action: 'update' | 'delete') => visibleForWrite(ctx, 'ad', 'Ad', id, action, findAd);

/** POST /<AD_ID>: name, status, creative (an ad stays in its ad set: adset_id may only repeat the current one). */
export async function updateAd(ctx: RequestContext, adId: string, params: Params): Promise<AdRecord> {
  const found = await visibleAd(ctx, adId, 'update');
  params ??= {};
  const input = readAdParams(params, 'update');
  const sent = sentOf(params, AD_PARAMS);
  const updated = await ctx.db.transaction(async (trx) => {
    const current = await lockRecord(ctx, trx, ads, found.id);
    if (input.adsetId !== undefined && input.adsetId !== current.adsetId) {
      throw paramError('adset_id', 'Param adset_id cannot be changed: an ad stays in the ad set it was created in');
    }
    assertStateAllows('ad', current.id, current.status, sent.filter((name) => name !== 'adset_id'), input.status);
    // Only the state table's transitions are allowed, so an ad never returns from ARCHIVED or DELETED and
    // the count of the ad set's live ads cannot grow here.
    const patch: Partial<AdRecord> = { ...definedOnly({ name: input.name, status: input.status, creative: input.creative }), updatedTime: new Date() };
    await trx(ads.table).where({ id: current.id }).update(ads.toRow(patch));
    return ads.fromRow(await trx(ads.table).where({ id: current.id }).first());
  });
  ctx.loaders.ads.adById.clear(updated.id).prime(updated.id, updated);
  return updated;
}

/** DELETE /<AD_ID>: status DELETED; the ad stays readable. Deleting twice is no error. */
export async function deleteAd(ctx: RequestContext, adId: string): Promise<void> {
  const found = await visibleAd(ctx, adId, 'delete');
  await ctx.db.transaction(async (trx) => {
    const current = await lockRecord(ctx, trx, ads, found.id);
    if (current.status !== 'DELETED') await trx(ads.table).where({ id: current.id }).update({ status: 'DELETED', updated_time: new Date() });
  });
  ctx.loaders.ads.adById.clear(found.id);
}

// --- Custom audiences and conversions ----------------------------------------------------------------------


function readLookalikeSpec(value: unknown, name: string): Record<string, unknown> {
  const spec = jsonObject(value, name);
  const field = (key: string, read: Reader<unknown>) => {
    if (absent(spec[key])) return;
    try {
      read(spec[key], `${name}.${key}`);
    } catch (error) {
      if (error instanceof DomainError) throw paramError(name, error.message);
      throw error;
    }
  };
  field('ratio', decimal(0.01, 0.2));
  field('starting_ratio', decimal(0, 0.19));
  field('country', (v, n) => {
    if (typeof v !== 'string' || !/^[A-Z]{2}$/.test(v)) throw paramError(n, `Param ${n} must be a two-letter country code`);
    return v;
  });
  field('type', oneOf(LOOKALIKE_TYPES));
  field('origin_audience_id', graphId);
  return spec;
}

/**
 * POST /act_<ID>/customaudiences. A LOOKALIKE needs `lookalike_spec` and a source audience of the same account
 * (`origin_audience_id`, as a parameter or inside the spec; stored in the spec); a lookalike of a flagged
 * audience starts with operation_status 471. The flag itself is only set by the platform's review (the CLI).
 */
export async function createCustomAudience(ctx: RequestContext, accountId: string, params: Params): Promise<CustomAudienceRecord> {
  const account = await accountForCreate(ctx, accountId, 'custom_audience', 'custom audiences');
  params ??= {};
  const name = requiredParam(params, 'name', text({ max: 255, nonEmpty: true }));
  const subtype = optionalParam(params, 'subtype', oneOf(AUDIENCE_SUBTYPES)) ?? 'CUSTOM';
  const description = optionalParam(params, 'description', text({ max: 1024 })) ?? null;
  let lookalikeSpec: Record<string, unknown> | null = null;
  let operationStatusCode = 200;
  let operationStatusDescription = 'Normal';
  if (subtype === 'LOOKALIKE') {
    lookalikeSpec = requiredParam(params, 'lookalike_spec', readLookalikeSpec);
    const originId = optionalParam(params, 'origin_audience_id', graphId) ?? (lookalikeSpec.origin_audience_id === undefined ? undefined : String(lookalikeSpec.origin_audience_id));
    if (originId === undefined) throw missingParam('origin_audience_id');
    const origin = await ctx.loaders.ads.customAudienceById.load(originId);
    if (!origin || origin.accountId !== account.id) {
      throw paramError('origin_audience_id', `Param origin_audience_id must be the id of a custom audience of ad account act_${account.id}`);
    }
    lookalikeSpec = { ...lookalikeSpec, origin_audience_id: originId };
    if (origin.flaggedReason !== null || origin.operationStatusCode === 471) {
      operationStatusCode = 471;
      operationStatusDescription = RESTRICTED_LOOKALIKE.description;
    }
  } else if (given(params, 'lookalike_spec')) {
    throw paramError('lookalike_spec', 'Param lookalike_spec is only accepted with subtype LOOKALIKE');
  }
  const [audience] = await ctx.db.transaction((trx) =>
    insertObjects<CustomAudienceRecord>(trx, 'custom_audience', customAudiences, [{
      organizationId: account.organizationId, accountId: account.id, name, subtype, description, lookalikeSpec,
      flaggedReason: null, operationStatusCode, operationStatusDescription,
    }]));
  ctx.loaders.ads.customAudienceById.clear(audience!.id).prime(audience!.id, audience!);
  return audience!;
}

/** The rule of a custom conversion: a JSON object, or a string holding one; stored as JSON text. */
const conversionRule: Reader<string> = (value, name) => {
  if (typeof value === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw paramError(name, `Param ${name} must be a JSON object (or a string holding one)`);
    }
    if (!isPlainObject(parsed)) throw paramError(name, `Param ${name} must be a JSON object (or a string holding one)`);
    return jsonText(parsed, name);
  }
  if (!isPlainObject(value)) throw paramError(name, `Param ${name} must be a JSON object (or a string holding one)`);
  return jsonText(value, name);
};

/** POST /act_<ID>/customconversions (authorized as custom audiences: the policy has one type for both). */
export async function createCustomConversion(ctx: RequestContext, accountId: string, params: Params): Promise<CustomConversionRecord> {
  const account = await accountForCreate(ctx, accountId, 'custom_audience', 'custom conversions');
  params ??= {};
  const name = requiredParam(params, 'name', text({ max: 255, nonEmpty: true }));
  const rule = requiredParam(params, 'rule', conversionRule);
  const customEventType = optionalParam(params, 'custom_event_type', oneOf(CUSTOM_EVENT_TYPES)) ?? null;
  const [conversion] = await ctx.db.transaction((trx) =>
    insertObjects<CustomConversionRecord>(trx, 'custom_conversion', customConversions, [{
      organizationId: account.organizationId, accountId: account.id, name, rule, customEventType, flaggedReason: null,
    }]));
  ctx.loaders.ads.customConversionById.clear(conversion!.id).prime(conversion!.id, conversion!);
  return conversion!;
}

// --- Helpers ------------------------------------------------------------------------------------------------

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
