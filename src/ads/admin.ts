import type { Knex } from 'knex';
import type { AppDeps } from '../context/index.ts';
import { insertObjects, graphObjects, type Owned } from '../db/objects.ts';
import { listingPage, type ListingRequest } from '../db/pagination.ts';
import type { TableMapping } from '../db/rows.ts';
import { isNumericId, type GraphObjectType } from '../db/ids.ts';
import { badInput, DomainError } from '../errors/index.ts';
import { findOrganizationByIdOrName } from '../identity/store.ts';
import { lockRow } from '../db/locks.ts';
import { adSetLimitOf, adSetLimitViolation } from './rules/limits.ts';
import { violationError } from './rules/violations.ts';
import { convertUsdCents } from './rules/currencies.ts';
import { DEFAULT_GOAL } from './rules/objectives.ts';
import type { Objective } from './rules/enums.ts';
import {
  adAccounts,
  campaigns,
  countLiveAdSets,
  customAudiences,
  customConversions,
  insertAdSets,
  newAdSet,
  type AdAccountRecord,
  type CustomAudienceRecord,
  type CustomConversionRecord,
  type FlagReason,
  RESTRICTED_LOOKALIKE,
} from './store.ts';
import { COUNTRY_CODES } from './rules/enums.ts';
import { CURRENCY_CODES } from './rules/currencies.ts';
import { FLAG_REASONS } from './rules/enums.ts';

/**
 * Operator services for the command line (DECISIONS section 7): creating ad accounts, and the platform's
 * review decision on custom audiences and conversions, which no API caller can make. No principal: whoever
 * can run the CLI against the database is the operator. Bad input names the CLI option it came from.
 */

/** ISO 4217 codes an ad account may use (rules/currencies.ts knows their minor units and budget rates). */
export const SUPPORTED_CURRENCIES = CURRENCY_CODES;

/** The 249 officially assigned ISO 3166-1 alpha-2 codes (no reserved or user-assigned ones such as EU, UK or XK). */
export const ISO_3166_ALPHA_2 = COUNTRY_CODES;

export { FLAG_REASONS };

export const NAME_MAX_LENGTH = 255;
export const DSA_MAX_LENGTH = 512;

/** operation_status of a lookalike whose source audience the review flagged, and of one that is usable again. */
export const NORMAL_OPERATION = { code: 200, description: 'Normal' } as const;

export function validateName(value: unknown, field = 'name'): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name === '' || name.length > NAME_MAX_LENGTH) throw badInput(field, `Name must be 1 to ${NAME_MAX_LENGTH} characters.`);
  return name;
}

function validateCurrency(value: unknown): string {
  if (typeof value !== 'string' || !(SUPPORTED_CURRENCIES as readonly string[]).includes(value)) {
    throw badInput('currency', `"${String(value)}" is not a supported ISO 4217 currency code; use one of ${SUPPORTED_CURRENCIES.join(', ')} (upper-case).`);
  }
  return value;
}

function validateCountry(value: unknown): string {
  if (typeof value !== 'string' || !ISO_3166_ALPHA_2.has(value)) {
    throw badInput('country', `"${String(value)}" is not an ISO 3166-1 alpha-2 country code in upper case (e.g. US, DE, JP).`);
  }
  return value;
}

function validateDsaName(value: string | undefined, field: string, what: string): string | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > DSA_MAX_LENGTH) throw badInput(field, `The default DSA ${what} must be 1 to ${DSA_MAX_LENGTH} characters.`);
  return trimmed;
}

export async function findOrganizationOrFail(deps: AppDeps, organization: string, field = 'org') {
  const found = await findOrganizationByIdOrName(deps.db, organization);
  if (!found) throw badInput(field, `No organization "${organization}".`);
  return found;
}

export interface CreateAdAccountInput {
  /** Organization id or name. */
  organization: string;
  name: string;
  currency: string;
  country: string;
  isBulk?: boolean;
  defaultDsaPayor?: string;
  defaultDsaBeneficiary?: string;
}

/** An active ad account in UTC, with nothing spent and no spend cap. */
export async function createAdAccount(deps: AppDeps, input: CreateAdAccountInput): Promise<AdAccountRecord> {
  const name = validateName(input.name);
  const currency = validateCurrency(input.currency);
  const country = validateCountry(input.country);
  const defaultDsaPayor = validateDsaName(input.defaultDsaPayor, 'default-dsa-payor', 'payor');
  const defaultDsaBeneficiary = validateDsaName(input.defaultDsaBeneficiary, 'default-dsa-beneficiary', 'beneficiary');
  const organization = await findOrganizationOrFail(deps, input.organization);
  const [account] = await deps.db.transaction((trx) =>
    insertObjects<AdAccountRecord>(trx, 'ad_account', adAccounts, [
      {
        organizationId: organization.id,
        name,
        accountStatus: 1,
        currency,
        country,
        timezoneName: 'Etc/UTC',
        isBulk: input.isBulk ?? false,
        defaultDsaPayor,
        defaultDsaBeneficiary,
        spendCap: null,
      },
    ]),
  );
  return account!;
}

const TYPE_NAMES: Record<GraphObjectType, string> = {
  ad_account: 'an ad account',
  campaign: 'a campaign',
  ad_set: 'an ad set',
  ad: 'an ad',
  custom_audience: 'a custom audience',
  custom_conversion: 'a custom conversion',
  async_request: 'an async request',
  async_request_set: 'an async request set',
  insights_report_run: 'an insights report run',
  ad_study: 'an ad study',
  ad_creative: 'an ad creative',
  ad_rule: 'an automated rule',
  ad_rule_run: "an automated rule's evaluation",
  ad_study_cell: 'an ad study cell',
  page: 'a page',
  post: 'a post',
  comment: 'a comment',
  api_client: 'an API client',
  group: 'a group',
};

/**
 * The id of an existing object of one type, read in `trx`: a malformed id or one of another type is bad
 * input, an id nothing has is NOT_FOUND; each names `field`.
 */
export async function requireObjectOfType(trx: Knex, id: string, type: GraphObjectType, field: string): Promise<void> {
  const label = TYPE_NAMES[type].replace(/^an? /, '');
  if (!isNumericId(id)) throw badInput(field, `"${id}" is not ${TYPE_NAMES[type]} id (a number).`);
  const entry = await trx(graphObjects.table).where({ id }).first();
  const actual = entry ? graphObjects.fromRow(entry).type : undefined;
  if (!actual) throw new DomainError('NOT_FOUND', `No ${label} ${id}.`, { field, detail: id });
  if (actual !== type) throw badInput(field, `${id} is ${TYPE_NAMES[actual] ?? actual}, not ${TYPE_NAMES[type]}.`);
}

/** null clears the flag (the review was reversed); anything else must be a flag reason. */
function validateReason(reason: unknown): FlagReason | null {
  if (reason === null) return null;
  if (typeof reason !== 'string' || !(FLAG_REASONS as readonly string[]).includes(reason)) {
    throw badInput('reason', `"${String(reason)}" is not a flag reason; use one of ${FLAG_REASONS.join(', ')} (or clear the flag).`);
  }
  return reason as FlagReason;
}

/** What a lookalike's spec names as its source: audience ids and, for specs that carry none, audience names. */
export function lookalikeOrigins(spec: unknown): { ids: string[]; names: string[] } {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return { ids: [], names: [] };
  const s = spec as Record<string, unknown>;
  const ids = new Set<string>();
  const addId = (value: unknown) => {
    if ((typeof value === 'string' && isNumericId(value)) || (typeof value === 'number' && Number.isSafeInteger(value) && value > 0)) ids.add(String(value));
  };
  addId(s.origin_audience_id);
  // The Graph API reads a lookalike's sources back as `origin: [{id, name, type}]`.
  for (const origin of Array.isArray(s.origin) ? s.origin : s.origin === undefined ? [] : [s.origin]) {
    addId(origin && typeof origin === 'object' ? (origin as Record<string, unknown>).id : origin);
  }
  const names = ids.size === 0 && typeof s.origin_audience_name === 'string' ? [s.origin_audience_name] : [];
  return { ids: [...ids], names };
}

/** An audience as the lookalike walk sees it. */
type AudienceNode = Pick<
  CustomAudienceRecord,
  'id' | 'accountId' | 'name' | 'lookalikeSpec' | 'flaggedReason' | 'operationStatusCode' | 'operationStatusDescription'
>;

const NODE_COLUMNS = ['id', 'account_id', 'name', 'lookalike_spec', 'flagged_reason', 'operation_status_code', 'operation_status_description'];

/** Whether `lookalike` names `audience` as a source. Ids are global; names only count within one account. */
function isSourceOf(audience: AudienceNode, lookalike: AudienceNode): boolean {
  const origins = lookalikeOrigins(lookalike.lookalikeSpec);
  return origins.ids.includes(audience.id) || (lookalike.accountId === audience.accountId && origins.names.includes(audience.name));
}

export interface FlagResult<T> {
  record: T;
  /** For audiences: the lookalikes made from it (and from those), with their operation_status after the change. */
  lookalikes: Array<{ id: string; operationStatusCode: number; operationStatusDescription: string | null }>;
}

/**
 * Sets (or, with reason null, clears) the review flag of a custom audience, in one transaction with what
 * follows from it. Flagged: every lookalike made from it, and every lookalike made from those (the API gives a
 * lookalike of a 471 lookalike 471 too), gets operation_status 471 (one already at 471 keeps its description).
 * Cleared: those lookalikes at 471 go back to 200 unless another source is still flagged or restricted.
 */
export async function flagAudience(deps: AppDeps, input: { id: string; reason: FlagReason | string | null }): Promise<FlagResult<CustomAudienceRecord>> {
  const reason = validateReason(input.reason);
  const id = input.id.trim();
  return deps.db.transaction(async (trx) => {
    await requireObjectOfType(trx, id, 'custom_audience', 'audience_id');
    const row = await trx(customAudiences.table).where({ id }).forUpdate().first();
    if (!row) throw new DomainError('NOT_FOUND', `No custom audience ${id}.`, { field: 'audience_id', detail: id });
    const now = new Date();
    const audience: CustomAudienceRecord = { ...customAudiences.fromRow(row), flaggedReason: reason, updatedTime: now };
    await trx(customAudiences.table)
      .where({ id })
      .update(customAudiences.toRow({ flaggedReason: reason, updatedTime: now }));

    // The lookalikes downstream of the audience, nearest first.
    const allLookalikes = (await trx(customAudiences.table).whereNotNull('lookalike_spec').whereNot('id', id).select(NODE_COLUMNS)).map(
      (r) => customAudiences.fromRow(r) as AudienceNode,
    );
    const downstream: AudienceNode[] = [];
    const seen = new Set([id]);
    for (let queue: AudienceNode[] = [audience]; queue.length > 0;) {
      const next: AudienceNode[] = [];
      for (const source of queue) {
        for (const lookalike of allLookalikes) {
          if (seen.has(lookalike.id) || !isSourceOf(source, lookalike)) continue;
          seen.add(lookalike.id);
          downstream.push(lookalike);
          next.push(lookalike);
        }
      }
      queue = next;
    }

    const status = new Map(downstream.map((l) => [l.id, { code: l.operationStatusCode, description: l.operationStatusDescription }]));
    if (reason !== null) {
      for (const lookalike of downstream)
        if (lookalike.operationStatusCode !== RESTRICTED_LOOKALIKE.code) status.set(lookalike.id, { ...RESTRICTED_LOOKALIKE });
    } else {
      // Every source of those lookalikes (stored state; the downstream ones are decided below).
      const originIds = [...new Set(downstream.flatMap((l) => lookalikeOrigins(l.lookalikeSpec).ids))];
      const originNames = downstream.filter((l) => lookalikeOrigins(l.lookalikeSpec).names.length > 0);
      const sources =
        originIds.length === 0 && originNames.length === 0
          ? []
          : (
              await trx(customAudiences.table)
                .select(NODE_COLUMNS)
                .where((q) => {
                  if (originIds.length) q.whereIn('id', originIds);
                  for (const l of originNames) q.orWhere((n) => n.where('account_id', l.accountId).whereIn('name', lookalikeOrigins(l.lookalikeSpec).names));
                })
            ).map((r) => (String(r.id) === id ? audience : (customAudiences.fromRow(r) as AudienceNode)));
      const sourcesOf = (lookalike: AudienceNode) => sources.filter((s) => s.id !== lookalike.id && isSourceOf(s, lookalike));
      const restricted = (source: AudienceNode) =>
        source.flaggedReason !== null || (status.get(source.id)?.code ?? source.operationStatusCode) === RESTRICTED_LOOKALIKE.code;
      // Least fixpoint: start every restricted lookalike as usable, restrict again what still has a restricted source.
      const reconsidered = downstream.filter((l) => l.operationStatusCode === RESTRICTED_LOOKALIKE.code);
      for (const lookalike of reconsidered) status.set(lookalike.id, { ...NORMAL_OPERATION });
      for (let changed = true; changed;) {
        changed = false;
        for (const lookalike of reconsidered) {
          if (status.get(lookalike.id)!.code === RESTRICTED_LOOKALIKE.code || !sourcesOf(lookalike).some(restricted)) continue;
          status.set(lookalike.id, { code: lookalike.operationStatusCode, description: lookalike.operationStatusDescription });
          changed = true;
        }
      }
    }

    const lookalikes: FlagResult<CustomAudienceRecord>['lookalikes'] = [];
    for (const lookalike of downstream) {
      const after = status.get(lookalike.id)!;
      if (after.code !== lookalike.operationStatusCode || after.description !== lookalike.operationStatusDescription) {
        await trx(customAudiences.table)
          .where({ id: lookalike.id })
          .update(
            customAudiences.toRow({
              operationStatusCode: after.code,
              operationStatusDescription: after.description,
              updatedTime: now,
            }),
          );
      }
      lookalikes.push({ id: lookalike.id, operationStatusCode: after.code, operationStatusDescription: after.description });
    }
    return { record: audience, lookalikes };
  });
}

/** Sets (or, with reason null, clears) the review flag of a custom conversion. */
export async function flagConversion(deps: AppDeps, input: { id: string; reason: FlagReason | string | null }): Promise<CustomConversionRecord> {
  const reason = validateReason(input.reason);
  const id = input.id.trim();
  return deps.db.transaction(async (trx) => {
    await requireObjectOfType(trx, id, 'custom_conversion', 'conversion_id');
    const row = await trx(customConversions.table).where({ id }).first();
    if (!row) throw new DomainError('NOT_FOUND', `No custom conversion ${id}.`, { field: 'conversion_id', detail: id });
    const now = new Date();
    await trx(customConversions.table)
      .where({ id })
      .update(customConversions.toRow({ flaggedReason: reason, updatedTime: now }));
    return { ...customConversions.fromRow(row), flaggedReason: reason, updatedTime: now };
  });
}

/** An ad account id as operators write it: `act_<id>` or `<id>`. */
const accountIdOf = (id: string) => (id.startsWith('act_') ? id.slice(4) : id);

/** Objects of one table in id order, all organizations' or one's (id or name, from --org). */
export async function listOwned<T extends Owned>(deps: AppDeps, mapping: TableMapping<T>, request: ListingRequest, filter: { organization?: string } = {}) {
  const query = deps.db(mapping.table);
  if (filter.organization !== undefined) query.where('organization_id', (await findOrganizationOrFail(deps, filter.organization)).id);
  return listingPage(query, mapping, request, 'number');
}

/** One object of a type by id; a malformed id, another type's or an unknown one is refused naming `field`. */
export async function readObjectOfType<T>(deps: AppDeps, mapping: TableMapping<T>, type: GraphObjectType, id: string, field: string): Promise<T> {
  await requireObjectOfType(deps.db, id, type, field);
  return mapping.fromRow(await deps.db(mapping.table).where({ id }).first());
}

export const listAdAccounts = (deps: AppDeps, request: ListingRequest, filter: { organization?: string } = {}) => listOwned(deps, adAccounts, request, filter);

export interface AdAccountDetails {
  account: AdAccountRecord;
  campaigns: number;
  /** Ad sets that are not deleted, and how many the account may have. */
  liveAdSets: number;
  adSetLimit: number;
}

export async function adAccountDetails(deps: AppDeps, id: string): Promise<AdAccountDetails> {
  const account = await readObjectOfType(deps, adAccounts, 'ad_account', accountIdOf(id), 'account');
  const [campaignCount, liveAdSets] = await Promise.all([
    deps.db(campaigns.table).where({ account_id: account.id }).count({ n: '*' }).first(),
    countLiveAdSets(deps.db, account.id),
  ]);
  return { account, campaigns: Number(campaignCount?.n ?? 0), liveAdSets, adSetLimit: adSetLimitOf(account, deps.config.adSets.limits) };
}

export interface UpdateAdAccountInput {
  id: string;
  isBulk?: boolean;
  /** A new default, or null to remove it. */
  defaultDsaPayor?: string | null;
  defaultDsaBeneficiary?: string | null;
  /** An operator's restriction (every write refused with error 368), or null to lift it. */
  restrictedReason?: string | null;
}

/** Changes what the ad set rules read from an account: bulk (the 10,000 limit), the DSA defaults, a restriction. */
export async function updateAdAccount(deps: AppDeps, input: UpdateAdAccountInput): Promise<AdAccountRecord> {
  const id = accountIdOf(input.id);
  const patch: Partial<AdAccountRecord> = {};
  if (input.isBulk !== undefined) patch.isBulk = input.isBulk;
  if (input.defaultDsaPayor !== undefined)
    patch.defaultDsaPayor = input.defaultDsaPayor === null ? null : validateDsaName(input.defaultDsaPayor, 'default-dsa-payor', 'payor');
  if (input.defaultDsaBeneficiary !== undefined) {
    patch.defaultDsaBeneficiary =
      input.defaultDsaBeneficiary === null ? null : validateDsaName(input.defaultDsaBeneficiary, 'default-dsa-beneficiary', 'beneficiary');
  }
  if (input.restrictedReason !== undefined) {
    const reason = input.restrictedReason?.trim() ?? null;
    if (reason !== null && (reason === '' || reason.length > 500)) throw badInput('restrict', 'The restriction needs a reason of 1 to 500 characters.');
    patch.restrictedReason = reason;
  }
  return deps.db.transaction(async (trx) => {
    await requireObjectOfType(trx, id, 'ad_account', 'account');
    if (Object.keys(patch).length === 0)
      throw badInput('account', 'Nothing to change: give --bulk, --no-bulk, a DSA default, --restrict, --unrestrict or a --clear-… option.');
    await trx(adAccounts.table)
      .where({ id })
      .update(adAccounts.toRow({ ...patch, updatedTime: new Date() }));
    return adAccounts.fromRow(await trx(adAccounts.table).where({ id }).first());
  });
}

export interface FillAdSetsResult {
  campaignId: string;
  created: string[];
  /** Non-deleted ad sets of the account afterwards, and its limit. */
  liveAdSets: number;
  limit: number;
}

/**
 * Fills a campaign with `count` paused ad sets (targeting the account's country, a daily budget well above
 * the minimum), in one transaction that holds the account: for testers who need an account at or near its ad
 * set limit without thousands of API calls. The limit holds here too (error 2695 beyond it).
 */
export async function fillAdSets(deps: AppDeps, input: { campaign: string; count: number }): Promise<FillAdSetsResult> {
  if (!Number.isSafeInteger(input.count) || input.count < 1 || input.count > 20_000) throw badInput('count', 'count must be a whole number from 1 to 20000.');
  return deps.db.transaction(async (trx) => {
    await requireObjectOfType(trx, input.campaign, 'campaign', 'campaign');
    const campaign = campaigns.fromRow(await trx(campaigns.table).where({ id: input.campaign }).first());
    const lockedAccount = await lockRow(deps.db, trx, 'ad_accounts', campaign.accountId);
    const account = adAccounts.fromRow(lockedAccount!);
    const live = await countLiveAdSets(trx, account.id);
    const limit = adSetLimitViolation(account, live, input.count, deps.config.adSets.limits, 'count');
    if (limit) throw violationError(limit);
    const ownBudget = campaign.dailyBudget === null && campaign.lifetimeBudget === null;
    const created = await insertAdSets(
      trx,
      Array.from({ length: input.count }, (_, i) =>
        newAdSet({
          organizationId: account.organizationId,
          accountId: account.id,
          campaignId: campaign.id,
          name: `Filler ${live + i + 1}`,
          status: 'PAUSED',
          billingEvent: 'IMPRESSIONS',
          optimizationGoal: DEFAULT_GOAL[campaign.objective as Objective] ?? 'REACH',
          dailyBudget: ownBudget ? convertUsdCents(10_000n, account.currency, deps.config.adSets.budgets.rates).toString() : null,
          targeting: { geo_locations: { countries: [account.country] } },
        }),
      ),
    );
    return {
      campaignId: campaign.id,
      created: created.map((a) => a.id),
      liveAdSets: live + created.length,
      limit: adSetLimitOf(account, deps.config.adSets.limits),
    };
  });
}
