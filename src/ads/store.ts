import type { Knex } from 'knex';
import { camel, defineTable, type ColumnKind } from '../db/rows.ts';
import { insertObjects, OWNED_COLUMNS as OWNED, type Owned } from '../db/objects.ts';
import type { ObjectStatus } from './rules/enums.ts';
import { audienceIdsOf, conversionIdsOf, RESTRICTED_LOOKALIKE_CODE } from './rules/restrictions.ts';
import { LIVE_AD_STATUSES } from './rules/limits.ts';
import type { FlagReason } from './rules/enums.ts';
import type { StoredPrincipal } from '../identity/principals.ts';

export type { ObjectStatus };
type Json = unknown;

export interface AdAccountRecord extends Owned {
  name: string;
  accountStatus: number;
  currency: string;
  country: string;
  timezoneName: string;
  isBulk: boolean;
  defaultDsaPayor: string | null;
  defaultDsaBeneficiary: string | null;
  spendCap: string | null;
  /** Set by an operator: every write to the account's objects is refused with error 368 while it holds. */
  restrictedReason?: string | null;
}

export interface CampaignRecord extends Owned {
  accountId: string;
  name: string;
  objective: string;
  status: ObjectStatus;
  specialAdCategories: string[];
  specialAdCategoryCountry: string | null;
  bidStrategy: string | null;
  buyingType: string;
  dailyBudget: string | null;
  lifetimeBudget: string | null;
  spendCap: string | null;
  startTime: Date | null;
  stopTime: Date | null;
  /** Running length of its ended ACTIVE spells, seconds (src/insights/rules/active-time.ts adds the current one). */
  activeSeconds: string;
  /** When its status last changed; null while the status has held since creation. */
  statusChangedTime: Date | null;
}

/** Scalar columns of an ad set beyond the ones every object has, with their kinds. */
const AD_SET_SCALARS = {
  asset_feed_id: 'string',
  bid_amount: 'bigint',
  bid_strategy: 'string',
  billing_event: 'string',
  campaign_attribution: 'string',
  daily_budget: 'bigint',
  daily_min_spend_target: 'bigint',
  daily_spend_cap: 'bigint',
  daily_imps: 'bigint',
  destination_type: 'string',
  dsa_beneficiary: 'string',
  dsa_payor: 'string',
  start_time: 'date',
  end_time: 'date',
  last_significant_edit_time: 'date',
  status_changed_time: 'date',
  lifetime_budget: 'bigint',
  lifetime_imps: 'int',
  lifetime_min_spend_target: 'bigint',
  lifetime_spend_cap: 'bigint',
  is_incremental_attribution_enabled: 'bool',
  is_dynamic_creative: 'bool',
  is_sac_cfca_terms_certified: 'bool',
  instagram_user_id: 'string',
  min_budget_spend_percentage: 'bigint',
  max_budget_spend_percentage: 'bigint',
  existing_customer_budget_percentage: 'bigint',
  anchor_event_attribution_window_days: 'bigint',
  automatic_manual_state: 'string',
  budget_source: 'string',
  budget_split_set_id: 'string',
  multi_optimization_goal_weight: 'string',
  optimization_goal: 'string',
  optimization_sub_event: 'string',
  recurring_budget_semantics: 'bool',
  review_feedback: 'string',
  rf_prediction_id: 'string',
  source_adset_id: 'id',
  tune_for_category: 'string',
  use_new_app_click: 'bool',
  value_rule_set_id: 'string',
  value_rules_applied: 'bool',
} as const satisfies Record<string, ColumnKind>;

export const AD_SET_JSON_COLUMNS = [
  'adlabels',
  'adset_schedule',
  'attribution_spec',
  'bid_adjustments',
  'bid_constraints',
  'bid_info',
  'brand_safety_config',
  'budget_schedule_specs',
  'campaign_spec',
  'contextual_bundling_spec',
  'creative_sequence',
  'frequency_control_specs',
  'pacing_type',
  'promoted_object',
  'regional_regulated_categories',
  'regional_regulation_identities',
  'targeting',
  'targeting_optimization_types',
  'time_based_ad_rotation_id_blocks',
  'time_based_ad_rotation_intervals',
] as const;

export interface AdSetRecord extends Owned {
  accountId: string;
  campaignId: string;
  name: string;
  status: ObjectStatus;
  assetFeedId: string | null;
  bidAmount: string | null;
  bidStrategy: string | null;
  billingEvent: string | null;
  campaignAttribution: string | null;
  dailyBudget: string | null;
  dailyMinSpendTarget: string | null;
  dailySpendCap: string | null;
  dailyImps: string | null;
  destinationType: string | null;
  dsaBeneficiary: string | null;
  dsaPayor: string | null;
  startTime: Date | null;
  endTime: Date | null;
  /** When learning last restarted (src/insights/rules/significant-edits.ts); its creation at first. */
  lastSignificantEditTime: Date | null;
  /** When its status last changed; null while the status has held since creation. */
  statusChangedTime: Date | null;
  lifetimeBudget: string | null;
  /** int32 in the resource table: a number, not a numeric string. */
  lifetimeImps: number | null;
  lifetimeMinSpendTarget: string | null;
  lifetimeSpendCap: string | null;
  isIncrementalAttributionEnabled: boolean | null;
  isDynamicCreative: boolean | null;
  isSacCfcaTermsCertified: boolean | null;
  instagramUserId: string | null;
  minBudgetSpendPercentage: string | null;
  maxBudgetSpendPercentage: string | null;
  existingCustomerBudgetPercentage: string | null;
  anchorEventAttributionWindowDays: string | null;
  automaticManualState: string | null;
  budgetSource: string | null;
  budgetSplitSetId: string | null;
  multiOptimizationGoalWeight: string | null;
  optimizationGoal: string | null;
  optimizationSubEvent: string | null;
  recurringBudgetSemantics: boolean | null;
  reviewFeedback: string | null;
  rfPredictionId: string | null;
  sourceAdsetId: string | null;
  tuneForCategory: string | null;
  useNewAppClick: boolean | null;
  valueRuleSetId: string | null;
  valueRulesApplied: boolean | null;
  adlabels: Json;
  adsetSchedule: Json;
  attributionSpec: Json;
  bidAdjustments: Json;
  bidConstraints: Json;
  bidInfo: Json;
  brandSafetyConfig: Json;
  budgetScheduleSpecs: Json;
  campaignSpec: Json;
  contextualBundlingSpec: Json;
  creativeSequence: Json;
  frequencyControlSpecs: Json;
  pacingType: Json;
  promotedObject: Json;
  regionalRegulatedCategories: Json;
  regionalRegulationIdentities: Json;
  targeting: Json;
  targetingOptimizationTypes: Json;
  timeBasedAdRotationIdBlocks: Json;
  timeBasedAdRotationIntervals: Json;
}

export interface AdRecord extends Owned {
  accountId: string;
  campaignId: string;
  adsetId: string;
  name: string;
  status: ObjectStatus;
  /** The creative it shows (src/ads/creatives.ts); null only for an ad the creatives migration could not reach. */
  creativeId: string | null;
  sourceAdId: string | null;
}

/** An account's creative (issue 21): ads reference it by id; the fields are the platform's (src/ads/rules/creatives.ts). */
export interface AdCreativeRecord extends Owned {
  accountId: string;
  name: string;
  status: 'ACTIVE' | 'DELETED';
  title: string | null;
  body: string | null;
  imageUrl: string | null;
  linkUrl: string | null;
  callToActionType: string | null;
  urlTags: string | null;
  objectStorySpec: Json;
  /** What a migrated ad's creative JSON held beyond these fields, kept whole (db/migrations/..._ad_creatives.ts). */
  extra: Json;
}

export type { FlagReason };

/** The operation status of a lookalike whose source audience is flagged (or is itself such a lookalike). */
export const RESTRICTED_LOOKALIKE = {
  code: RESTRICTED_LOOKALIKE_CODE,
  description: 'The source audience of this lookalike may suggest health conditions or financial status; the lookalike cannot be used to run ads.',
} as const;

export interface CustomAudienceRecord extends Owned {
  accountId: string;
  name: string;
  subtype: string;
  description: string | null;
  lookalikeSpec: Json;
  flaggedReason: FlagReason | null;
  operationStatusCode: number;
  operationStatusDescription: string | null;
}

export interface CustomConversionRecord extends Owned {
  accountId: string;
  name: string;
  rule: string | null;
  customEventType: string | null;
  flaggedReason: FlagReason | null;
}

export interface AsyncRequestSetRecord extends Owned {
  accountId: string;
  name: string;
  ownerId: string;
  principal: StoredPrincipal;
}

export const ASYNC_REQUEST_STATUSES = ['INITIAL', 'IN_PROGRESS', 'SUCCESS', 'ERROR', 'CANCELED'] as const;
export type AsyncRequestStatus = (typeof ASYNC_REQUEST_STATUSES)[number];

export interface AsyncRequestRecord extends Owned {
  accountId: string;
  setId: string;
  adsetId: string | null;
  name: string;
  type: string;
  status: AsyncRequestStatus;
  input: Json;
  result: Json;
  error: Json;
  attempts: number;
  claimedBy: string | null;
  leaseExpiresAt: Date | null;
}

export const adAccounts = defineTable<AdAccountRecord>('ad_accounts', {
  ...OWNED,
  name: 'string',
  account_status: 'int',
  currency: 'string',
  country: 'string',
  timezone_name: 'string',
  is_bulk: 'bool',
  default_dsa_payor: 'string',
  default_dsa_beneficiary: 'string',
  spend_cap: 'bigint',
  restricted_reason: 'string',
});

export const campaigns = defineTable<CampaignRecord>('campaigns', {
  ...OWNED,
  account_id: 'id',
  name: 'string',
  objective: 'string',
  status: 'string',
  special_ad_categories: 'json',
  special_ad_category_country: 'string',
  bid_strategy: 'string',
  buying_type: 'string',
  daily_budget: 'bigint',
  lifetime_budget: 'bigint',
  spend_cap: 'bigint',
  start_time: 'date',
  stop_time: 'date',
  active_seconds: 'bigint',
  status_changed_time: 'date',
});

export const adSets = defineTable<AdSetRecord>('ad_sets', {
  ...OWNED,
  account_id: 'id',
  campaign_id: 'id',
  name: 'string',
  status: 'string',
  ...AD_SET_SCALARS,
  ...Object.fromEntries(AD_SET_JSON_COLUMNS.map((column) => [column, 'json' as const])),
});

export const ads = defineTable<AdRecord>('ads', {
  ...OWNED,
  account_id: 'id',
  campaign_id: 'id',
  adset_id: 'id',
  name: 'string',
  status: 'string',
  creative_id: 'id',
  source_ad_id: 'id',
});

export const adCreatives = defineTable<AdCreativeRecord>('ad_creatives', {
  ...OWNED,
  account_id: 'id',
  name: 'string',
  status: 'string',
  title: 'string',
  body: 'string',
  image_url: 'string',
  link_url: 'string',
  call_to_action_type: 'string',
  url_tags: 'string',
  object_story_spec: 'json',
  extra: 'json',
});

export const customAudiences = defineTable<CustomAudienceRecord>('custom_audiences', {
  ...OWNED,
  account_id: 'id',
  name: 'string',
  subtype: 'string',
  description: 'string',
  lookalike_spec: 'json',
  flagged_reason: 'string',
  operation_status_code: 'int',
  operation_status_description: 'string',
});

export const customConversions = defineTable<CustomConversionRecord>('custom_conversions', {
  ...OWNED,
  account_id: 'id',
  name: 'string',
  rule: 'string',
  custom_event_type: 'string',
  flagged_reason: 'string',
});

export const asyncRequestSets = defineTable<AsyncRequestSetRecord>('async_request_sets', {
  ...OWNED,
  account_id: 'id',
  name: 'string',
  owner_id: 'string',
  principal: 'json',
});

export const asyncRequests = defineTable<AsyncRequestRecord>('async_requests', {
  ...OWNED,
  account_id: 'id',
  set_id: 'id',
  adset_id: 'id',
  name: 'string',
  type: 'string',
  status: 'string',
  input: 'json',
  result: 'json',
  error: 'json',
  attempts: 'int',
  claimed_by: 'string',
  lease_expires_at: 'date',
});

export type NewAdSet = Omit<AdSetRecord, 'id' | 'createdTime' | 'updatedTime'>;

/** A new ad set with every optional field empty, so callers name only what they set. */
export function newAdSet(fields: Partial<NewAdSet> & Pick<NewAdSet, 'organizationId' | 'accountId' | 'campaignId' | 'name' | 'status'>): NewAdSet {
  const empty = Object.fromEntries(
    Object.keys(adSets.columns)
      .filter((c) => !(c in OWNED))
      .map((column) => [camel(column), null]),
  ) as unknown as NewAdSet;
  return { ...empty, ...fields };
}

// --- Ad set references -----------------------------------------------------------------------------------

export interface AdSetReferenceRecord {
  adSetId: string;
  kind: 'custom_audience' | 'custom_conversion';
  objectId: string;
}

export const adSetReferences = defineTable<AdSetReferenceRecord>('ad_set_references', { ad_set_id: 'id', kind: 'string', object_id: 'id' });

function referenceRows(adSet: Pick<AdSetRecord, 'id' | 'targeting' | 'promotedObject'>) {
  return [
    ...audienceIdsOf(adSet.targeting).map((id) => ({ ad_set_id: adSet.id, kind: 'custom_audience', object_id: id })),
    ...conversionIdsOf(adSet.promotedObject).map((id) => ({ ad_set_id: adSet.id, kind: 'custom_conversion', object_id: id })),
  ];
}

async function insertReferences(trx: Knex, rows: Array<Record<string, unknown>>): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await trx('ad_set_references').insert(rows.slice(i, i + 500));
}

/**
 * Inserts ad sets with their references (the audiences and conversions they use), in the caller's transaction.
 * Every insert of ad sets goes through here, so the references never fall behind the JSON they come from.
 */
export async function insertAdSets(trx: Knex, inputs: Array<NewAdSet & Partial<Pick<AdSetRecord, 'createdTime' | 'updatedTime'>>>): Promise<AdSetRecord[]> {
  // A new ad set (a copy too) starts learning, and holds its status, from its creation.
  const now = new Date();
  const fresh = inputs.map((input) => {
    const createdTime = input.createdTime ?? now;
    return { ...input, createdTime, updatedTime: input.updatedTime ?? createdTime, lastSignificantEditTime: createdTime, statusChangedTime: null };
  });
  const records = await insertObjects<AdSetRecord>(trx, 'ad_set', adSets, fresh);
  await insertReferences(trx, records.flatMap(referenceRows));
  return records;
}

/** After an update that may change targeting or the promoted object: the references follow. */
export async function replaceAdSetReferences(trx: Knex, adSet: Pick<AdSetRecord, 'id' | 'targeting' | 'promotedObject'>): Promise<void> {
  await trx('ad_set_references').where({ ad_set_id: adSet.id }).delete();
  await insertReferences(trx, referenceRows(adSet));
}

/**
 * SQL that is true when the ad set whose id is `adSetIdSql` uses a restricted audience or conversion: the SQL
 * form of rules/restrictions.ts's isRestrictedAudience and isFlagged, for filtering edges by WITH_ISSUES.
 * `adSetIdSql` is a column reference of the enclosing query (`ad_sets.id`, `ads.adset_id`).
 */
export function adSetHasIssuesSql(adSetIdSql: string): string {
  return `exists (select 1 from ad_set_references r where r.ad_set_id = ${adSetIdSql} and (
    (r.kind = 'custom_audience' and exists (select 1 from custom_audiences a where a.id = r.object_id and (a.flagged_reason is not null or a.operation_status_code = ${RESTRICTED_LOOKALIKE_CODE})))
    or (r.kind = 'custom_conversion' and exists (select 1 from custom_conversions c where c.id = r.object_id and c.flagged_reason is not null))))`;
}

/**
 * Restarts the learning of ad sets (a significant edit made elsewhere: an ad added or its creative changed, a campaign
 * budget changed): by ad set id or by campaign. Deleted ad sets keep theirs.
 */
export async function restartLearning(trx: Knex, of: { adSetId: string } | { campaignId: string }, now: Date): Promise<void> {
  const where = 'adSetId' in of ? { id: of.adSetId } : { campaign_id: of.campaignId };
  await trx('ad_sets').where(where).whereNot({ status: 'DELETED' }).update({ last_significant_edit_time: now });
}

// --- What the limits count ------------------------------------------------------------------------------------

const countOf = async (query: Knex.QueryBuilder) => Number(((await query.count({ count: '*' })) as [{ count: number | string }])[0].count);

/** Ad sets of an account that are not DELETED: what the ad set limit counts. */
export const countLiveAdSets = (q: Knex, accountId: string) => countOf(q('ad_sets').where({ account_id: accountId }).whereNot({ status: 'DELETED' }));

/** Ads of an ad set that are neither ARCHIVED nor DELETED: what the ad limit counts and a deep copy carries. */
export const liveAdsOf = (q: Knex, adSetId: string) => q('ads').where({ adset_id: adSetId }).whereIn('status', LIVE_AD_STATUSES);
export const countLiveAds = (q: Knex, adSetId: string) => countOf(liveAdsOf(q, adSetId));
