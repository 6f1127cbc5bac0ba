import { camel, defineTable, type ColumnKind } from '../db/rows.ts';
import { OWNED_COLUMNS as OWNED, type Owned } from '../db/objects.ts';

export type ObjectStatus = 'ACTIVE' | 'PAUSED' | 'DELETED' | 'ARCHIVED';
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
  amountSpent: string;
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
}

/** Scalar columns of an ad set beyond the ones every object has, with their kinds. */
const AD_SET_SCALARS = {
  asset_feed_id: 'string', bid_amount: 'bigint', bid_strategy: 'string', billing_event: 'string', budget_remaining: 'bigint',
  campaign_active_time: 'bigint', campaign_attribution: 'string', daily_budget: 'bigint', daily_min_spend_target: 'bigint',
  daily_spend_cap: 'bigint', daily_imps: 'bigint', destination_type: 'string', dsa_beneficiary: 'string', dsa_payor: 'string',
  start_time: 'date', end_time: 'date', lifetime_budget: 'bigint', lifetime_imps: 'bigint', lifetime_min_spend_target: 'bigint',
  lifetime_spend_cap: 'bigint', is_incremental_attribution_enabled: 'bool', is_dynamic_creative: 'bool',
  is_sac_cfca_terms_certified: 'bool', instagram_user_id: 'string', min_budget_spend_percentage: 'bigint',
  max_budget_spend_percentage: 'bigint', existing_customer_budget_percentage: 'bigint',
  anchor_event_attribution_window_days: 'bigint', automatic_manual_state: 'string', budget_source: 'string',
  budget_split_set_id: 'string', multi_optimization_goal_weight: 'string', optimization_goal: 'string',
  optimization_sub_event: 'string', recurring_budget_semantics: 'bool', review_feedback: 'string', rf_prediction_id: 'string',
  source_adset_id: 'id', tune_for_category: 'string', use_new_app_click: 'bool', value_rule_set_id: 'string',
  value_rules_applied: 'bool',
} as const satisfies Record<string, ColumnKind>;

export const AD_SET_JSON_COLUMNS = [
  'adlabels', 'adset_schedule', 'attribution_spec', 'bid_adjustments', 'bid_constraints', 'bid_info', 'brand_safety_config',
  'budget_schedule_specs', 'campaign_spec', 'contextual_bundling_spec', 'creative_sequence', 'frequency_control_specs',
  'learning_stage_info', 'pacing_type', 'promoted_object', 'regional_regulated_categories', 'regional_regulation_identities',
  'targeting', 'targeting_optimization_types', 'time_based_ad_rotation_id_blocks', 'time_based_ad_rotation_intervals',
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
  budgetRemaining: string | null;
  campaignActiveTime: string | null;
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
  lifetimeBudget: string | null;
  lifetimeImps: string | null;
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
  learningStageInfo: Json;
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
  creative: Json;
  sourceAdId: string | null;
}

export type FlagReason = 'health' | 'financial';

/** The operation status of a lookalike whose source audience is flagged (or is itself such a lookalike). */
export const RESTRICTED_LOOKALIKE = {
  code: 471,
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

export interface AsyncRequestRecord extends Owned {
  accountId: string;
  adsetId: string | null;
  type: string;
  status: 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
  requestedBy: string | null;
  params: Json;
  result: Json;
  error: Json;
  totalCount: number;
  completedCount: number;
}

export const adAccounts = defineTable<AdAccountRecord>('ad_accounts', {
  ...OWNED, name: 'string', account_status: 'int', currency: 'string', country: 'string', timezone_name: 'string',
  is_bulk: 'bool', default_dsa_payor: 'string', default_dsa_beneficiary: 'string', spend_cap: 'bigint', amount_spent: 'bigint',
});

export const campaigns = defineTable<CampaignRecord>('campaigns', {
  ...OWNED, account_id: 'id', name: 'string', objective: 'string', status: 'string', special_ad_categories: 'json',
  special_ad_category_country: 'string', bid_strategy: 'string', buying_type: 'string', daily_budget: 'bigint',
  lifetime_budget: 'bigint', spend_cap: 'bigint', start_time: 'date', stop_time: 'date',
});

export const adSets = defineTable<AdSetRecord>('ad_sets', {
  ...OWNED, account_id: 'id', campaign_id: 'id', name: 'string', status: 'string', ...AD_SET_SCALARS,
  ...Object.fromEntries(AD_SET_JSON_COLUMNS.map((column) => [column, 'json' as const])),
});

export const ads = defineTable<AdRecord>('ads', {
  ...OWNED, account_id: 'id', campaign_id: 'id', adset_id: 'id', name: 'string', status: 'string', creative: 'json', source_ad_id: 'id',
});

export const customAudiences = defineTable<CustomAudienceRecord>('custom_audiences', {
  ...OWNED, account_id: 'id', name: 'string', subtype: 'string', description: 'string', lookalike_spec: 'json',
  flagged_reason: 'string', operation_status_code: 'int', operation_status_description: 'string',
});

export const customConversions = defineTable<CustomConversionRecord>('custom_conversions', {
  ...OWNED, account_id: 'id', name: 'string', rule: 'string', custom_event_type: 'string', flagged_reason: 'string',
});

export const asyncRequests = defineTable<AsyncRequestRecord>('async_requests', {
  ...OWNED, account_id: 'id', adset_id: 'id', type: 'string', status: 'string', requested_by: 'string', params: 'json',
  result: 'json', error: 'json', total_count: 'int', completed_count: 'int',
});

export type NewAdSet = Omit<AdSetRecord, 'id' | 'createdTime' | 'updatedTime'>;

/** A new ad set with every optional field empty, so callers name only what they set. */
export function newAdSet(fields: Partial<NewAdSet> & Pick<NewAdSet, 'organizationId' | 'accountId' | 'campaignId' | 'name' | 'status'>): NewAdSet {
  const empty = Object.fromEntries(
    Object.keys(adSets.columns).filter((c) => !(c in OWNED)).map((column) => [camel(column), null]),
  ) as unknown as NewAdSet;
  return { ...empty, ...fields };
}
