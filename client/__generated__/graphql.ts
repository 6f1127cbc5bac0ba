/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** See AdLabel. */
export type AdLabelInput = {
  id?: string | number | null | undefined;
  name?: string | null | undefined;
};

/** What a copy copied: the ad set, or one of its ads. */
export type AdObjectType =
  | 'AD'
  | 'AD_SET';

/** See AdSetScheduleEntry. */
export type AdSetScheduleEntryInput = {
  days: Array<number>;
  endMinute: number;
  startMinute: number;
  timezoneType?: string | null | undefined;
};

/** Status of an asynchronous request. */
export type AsyncRequestStatus =
  | 'CANCELED'
  | 'ERROR'
  | 'INITIAL'
  | 'IN_PROGRESS'
  | 'SUCCESS';

/** See AttributionSpec. */
export type AttributionSpecInput = {
  eventType: string;
  windowDays: number;
};

/** Whether the ad set's settings are chosen automatically or by hand (automatic_manual_state); UNSET when not said. */
export type AutomaticManualState =
  | 'AUTOMATIC'
  | 'MANUAL'
  | 'UNSET';

/** See BidConstraints. */
export type BidConstraintsInput = {
  roasAverageFloor?: number | null | undefined;
};

/** How bids are set (bid_strategy): lowest cost without a cap, with a bid cap (bidAmount), a cost cap, or a minimum ROAS. */
export type BidStrategy =
  | 'COST_CAP'
  | 'LOWEST_COST_WITHOUT_CAP'
  | 'LOWEST_COST_WITH_BID_CAP'
  | 'LOWEST_COST_WITH_MIN_ROAS';

/** What the advertiser is charged for (billing_event). */
export type BillingEvent =
  | 'APP_INSTALLS'
  | 'CLICKS'
  | 'IMPRESSIONS'
  | 'LINK_CLICKS'
  | 'LISTING_INTERACTION'
  | 'NONE'
  | 'OFFER_CLAIMS'
  | 'PAGE_LIKES'
  | 'POST_ENGAGEMENT'
  | 'PURCHASE'
  | 'THRUPLAY';

/** Where the ad set's budget comes from (budget_source), as the Graph API names it. */
export type BudgetSource =
  | 'NONE'
  | 'RMN';

/** The passcode requestOneTimePasscode e-mailed, and the new password (the policy validatePassword checks). */
export type ChangePasswordWithOneTimePasscodeInput = {
  email: string;
  oneTimePasscode: string;
  password: string;
};

/**
 * A comment's content: a message and/or one attachment (the specification's rules: a message or an attachment;
 * attachmentShareUrl alone; attachmentId may come with attachmentUrl). An edit replaces the whole content.
 * Mentions are written @[<user, page or group id>]; messages are at most 8,000 characters.
 */
export type CommentContentInput = {
  attachmentId?: string | number | null | undefined;
  attachmentShareUrl?: string | null | undefined;
  attachmentUrl?: string | null | undefined;
  message?: string | null | undefined;
  source?: string | null | undefined;
};

/** A copy of an ad set (Graph API: POST /<id>/copies). */
export type CopyAdSetInput = {
  /** Another campaign of the same account; the copy takes its settings (its budget, its objective's rules). */
  campaignId?: string | number | null | undefined;
  /** Copy the ads too: at most 3 synchronously, 51 with async: true. */
  deepCopy?: boolean | null | undefined;
  endTime?: string | null | undefined;
  /** Without it the copy is named "<name> - Copy". */
  renameOptions?: RenameOptionsInput | null | undefined;
  startTime?: string | null | undefined;
  /** PAUSED by default. */
  statusOption?: StatusOption | null | undefined;
};

/**
 * A new ad set (Graph API: POST /act_<id>/adsets), checked by the same rules (the specification's and DECISIONS
 * section 5's); a failure is BAD_USER_INPUT (LIMIT_EXCEEDED for the ad set limit) with extensions.field naming
 * the input's path (input.lifetimeBudget, input.targeting.geoLocations.countries)
 * and extensions.graphApi the platform's code, subcode and error_data.
 */
export type CreateAdSetInput = {
  adlabels?: Array<AdLabelInput> | null | undefined;
  adsetSchedule?: Array<AdSetScheduleEntryInput> | null | undefined;
  anchorEventAttributionWindowDays?: number | string | null | undefined;
  /** Ad asset feed (dynamic creative). */
  assetFeedId?: string | number | null | undefined;
  attributionSpec?: Array<AttributionSpecInput> | null | undefined;
  automaticManualState?: AutomaticManualState | null | undefined;
  /** A map (type to value): GraphQL has no map type, so it stays JSON in the Graph API's shape. */
  bidAdjustments?: unknown;
  /** Bid cap or cost cap, in the minor unit. */
  bidAmount?: number | string | null | undefined;
  bidConstraints?: BidConstraintsInput | null | undefined;
  /** The specification gives no structure for it, so it stays JSON in the Graph API's shape. */
  bidInfo?: unknown;
  bidStrategy?: BidStrategy | null | undefined;
  billingEvent: BillingEvent;
  /** The specification gives no structure for it, so it stays JSON in the Graph API's shape. */
  brandSafetyConfig?: unknown;
  /** The specification gives no structure for it, so it stays JSON in the Graph API's shape. */
  budgetScheduleSpecs?: unknown;
  budgetSource?: BudgetSource | null | undefined;
  budgetSplitSetId?: string | number | null | undefined;
  campaignAttribution?: string | null | undefined;
  /** A campaign of the same account. */
  campaignId: string | number;
  /** The specification gives no structure for it, so it stays JSON in the Graph API's shape. */
  campaignSpec?: unknown;
  /** The specification gives no structure for it, so it stays JSON in the Graph API's shape. */
  contextualBundlingSpec?: unknown;
  creativeSequence?: Array<string | number> | null | undefined;
  /** One of dailyBudget and lifetimeBudget, unless the campaign has its own budget. */
  dailyBudget?: number | string | null | undefined;
  dailyImps?: number | string | null | undefined;
  dailyMinSpendTarget?: number | string | null | undefined;
  /** 922337203685478 removes the cap. */
  dailySpendCap?: number | string | null | undefined;
  destinationType?: DestinationType | null | undefined;
  dsaBeneficiary?: string | null | undefined;
  /** Required when targeting the European Union unless the account has a default (at most 512 characters). */
  dsaPayor?: string | null | undefined;
  endTime?: string | null | undefined;
  existingCustomerBudgetPercentage?: number | string | null | undefined;
  frequencyControlSpecs?: Array<FrequencyControlSpecInput> | null | undefined;
  instagramUserId?: string | number | null | undefined;
  isDynamicCreative?: boolean | null | undefined;
  isIncrementalAttributionEnabled?: boolean | null | undefined;
  isSacCfcaTermsCertified?: boolean | null | undefined;
  /** Needs endTime. */
  lifetimeBudget?: number | string | null | undefined;
  lifetimeImps?: number | string | null | undefined;
  lifetimeMinSpendTarget?: number | string | null | undefined;
  lifetimeSpendCap?: number | string | null | undefined;
  maxBudgetSpendPercentage?: number | string | null | undefined;
  minBudgetSpendPercentage?: number | string | null | undefined;
  multiOptimizationGoalWeight?: MultiOptimizationGoalWeight | null | undefined;
  /** At most 400 characters. */
  name: string;
  /** Defaults to the campaign objective's first goal. */
  optimizationGoal?: OptimizationGoal | null | undefined;
  optimizationSubEvent?: OptimizationSubEvent | null | undefined;
  pacingType?: Array<PacingType> | null | undefined;
  promotedObject?: PromotedObjectInput | null | undefined;
  recurringBudgetSemantics?: boolean | null | undefined;
  /** The regulated categories (the SDK's codes, 0 to 12); each needs a beneficiary and a payer in regionalRegulationIdentities. */
  regionalRegulatedCategories?: Array<string> | null | undefined;
  /** Beneficiary and payer identity ids by regulation (australia_finserv_beneficiary, ..._payer, ...): a map, so JSON. */
  regionalRegulationIdentities?: unknown;
  /** At most 2,048 characters. */
  reviewFeedback?: string | null | undefined;
  rfPredictionId?: string | number | null | undefined;
  /** Copy lineage: the ad set this one comes from. */
  sourceAdSetId?: string | number | null | undefined;
  /** @deprecated Use sourceAdSetId (one spelling of ad set). */
  sourceAdsetId?: string | number | null | undefined;
  startTime?: string | null | undefined;
  /** ACTIVE (the default) or PAUSED. */
  status?: ObjectStatus | null | undefined;
  targeting: TargetingInput;
  timeBasedAdRotationIdBlocks?: Array<Array<number | string>> | null | undefined;
  timeBasedAdRotationIntervals?: Array<number | string> | null | undefined;
  tuneForCategory?: TuneForCategory | null | undefined;
  useNewAppClick?: boolean | null | undefined;
  valueRuleSetId?: string | number | null | undefined;
  valueRulesApplied?: boolean | null | undefined;
};

/** How far a converted date format matches the legacy one (see the README's Date formats). */
export type DateFormatSeverity =
  /** Equivalent: everything the legacy pattern printed parses to the same instant and prints the same. */
  | 'EXACT'
  /** Equivalent except for printing, or dependent on locale text: test with real data. */
  | 'REVIEW'
  /** No java.time pattern is equivalent: the finding says what to do. */
  | 'UNSUPPORTED';

/** Where the ads send people (destination_type): a website, an app, a messaging app, or a place on Facebook or Instagram. */
export type DestinationType =
  | 'APP'
  | 'APPLINKS_AUTOMATIC'
  | 'FACEBOOK'
  | 'FACEBOOK_LIVE'
  | 'FACEBOOK_PAGE'
  | 'IMAGINE'
  | 'INSTAGRAM_DIRECT'
  | 'INSTAGRAM_LIVE'
  | 'INSTAGRAM_PROFILE'
  | 'INSTAGRAM_PROFILE_AND_FACEBOOK_PAGE'
  | 'MESSAGING_INSTAGRAM_DIRECT_MESSENGER'
  | 'MESSAGING_INSTAGRAM_DIRECT_MESSENGER_WHATSAPP'
  | 'MESSAGING_INSTAGRAM_DIRECT_WHATSAPP'
  | 'MESSAGING_MESSENGER_WHATSAPP'
  | 'MESSENGER'
  | 'ON_AD'
  | 'ON_EVENT'
  | 'ON_PAGE'
  | 'ON_POST'
  | 'ON_VIDEO'
  | 'SHOP_AUTOMATIC'
  | 'WEBSITE'
  | 'WHATSAPP';

/**
 * Whether an object delivers, from its own status, its parents' and its ad set's issues. Campaigns read
 * ACTIVE, PAUSED, DELETED or ARCHIVED; ad sets also CAMPAIGN_PAUSED and WITH_ISSUES; ads also ADSET_PAUSED.
 * Lists leave out DELETED and ARCHIVED objects unless asked for them with effectiveStatus (or status).
 */
export type EffectiveStatus =
  | 'ACTIVE'
  | 'ADSET_PAUSED'
  | 'ARCHIVED'
  | 'CAMPAIGN_PAUSED'
  | 'DELETED'
  | 'IN_PROCESS'
  | 'PAUSED'
  | 'WITH_ISSUES';

/** See FlexibleSpec. */
export type FlexibleSpecInput = {
  behaviors?: Array<TargetingEntityInput> | null | undefined;
  customAudiences?: Array<TargetingEntityInput> | null | undefined;
  educationStatuses?: Array<number> | null | undefined;
  familyStatuses?: Array<TargetingEntityInput> | null | undefined;
  income?: Array<TargetingEntityInput> | null | undefined;
  industries?: Array<TargetingEntityInput> | null | undefined;
  interests?: Array<TargetingEntityInput> | null | undefined;
  lifeEvents?: Array<TargetingEntityInput> | null | undefined;
  relationshipStatuses?: Array<number> | null | undefined;
  workPositions?: Array<TargetingEntityInput> | null | undefined;
};

/** See FrequencyControlSpec. */
export type FrequencyControlSpecInput = {
  event: string;
  intervalDays: number;
  maxFrequency: number;
};

/** See GeoCity. */
export type GeoCityInput = {
  distanceUnit?: string | null | undefined;
  key: string;
  name?: string | null | undefined;
  radius?: number | null | undefined;
};

/** See GeoLocationKey. */
export type GeoLocationKeyInput = {
  key: string;
  name?: string | null | undefined;
};

/** See GeoLocations. In geoLocations, countries is required (a non-empty list). */
export type GeoLocationsInput = {
  cities?: Array<GeoCityInput> | null | undefined;
  countries?: Array<string> | null | undefined;
  countryGroups?: Array<string> | null | undefined;
  locationTypes?: Array<string> | null | undefined;
  regions?: Array<GeoLocationKeyInput> | null | undefined;
  zips?: Array<GeoLocationKeyInput> | null | undefined;
};

/** How actions are broken down: by action type (link_click, lead, purchase, ...). */
export type InsightsActionBreakdown =
  | 'ACTION_TYPE';

/** Age brackets, as the platform reports them (13-17 ... 65+). */
export type InsightsAge =
  | 'AGE_13_17'
  | 'AGE_18_24'
  | 'AGE_25_34'
  | 'AGE_35_44'
  | 'AGE_45_54'
  | 'AGE_55_64'
  | 'AGE_65_PLUS';

/**
 * What rows are broken down by. Allowed together: AGE and GENDER; COUNTRY alone; PUBLISHER_PLATFORM,
 * PLATFORM_POSITION and DEVICE_PLATFORM as the platform combines them.
 */
export type InsightsBreakdown =
  | 'AGE'
  | 'COUNTRY'
  | 'DEVICE_PLATFORM'
  | 'GENDER'
  | 'PLATFORM_POSITION'
  | 'PUBLISHER_PLATFORM';

/** The platform's date presets, computed in the ad account's time zone. MAXIMUM reads at most 37 months back. */
export type InsightsDatePreset =
  | 'DATA_MAXIMUM'
  | 'LAST_3D'
  | 'LAST_7D'
  | 'LAST_14D'
  | 'LAST_28D'
  | 'LAST_30D'
  | 'LAST_90D'
  | 'LAST_MONTH'
  | 'LAST_QUARTER'
  | 'LAST_WEEK_MON_SUN'
  | 'LAST_WEEK_SUN_SAT'
  | 'LAST_YEAR'
  | 'MAXIMUM'
  | 'THIS_MONTH'
  | 'THIS_QUARTER'
  | 'THIS_WEEK_MON_TODAY'
  | 'THIS_WEEK_SUN_TODAY'
  | 'THIS_YEAR'
  | 'TODAY'
  | 'YESTERDAY';

/**
 * campaign.id, adset.id, ad.id (value: a list of ids for IN and NOT_IN), campaign.effective_status,
 * adset.effective_status, ad.effective_status, or a numeric field of the report (spend, impressions, ...).
 */
export type InsightsFilter = {
  field: string;
  operator: InsightsFilterOperator;
  value: unknown;
};

/** How a filter compares: EQUAL and NOT_EQUAL a value, IN and NOT_IN a list, the rest numbers (IN_RANGE takes [low, high]). */
export type InsightsFilterOperator =
  | 'EQUAL'
  | 'GREATER_THAN'
  | 'GREATER_THAN_OR_EQUAL'
  | 'IN'
  | 'IN_RANGE'
  | 'LESS_THAN'
  | 'LESS_THAN_OR_EQUAL'
  | 'NOT_EQUAL'
  | 'NOT_IN'
  | 'NOT_IN_RANGE';

/** Gender as people state it, or UNKNOWN. */
export type InsightsGender =
  | 'FEMALE'
  | 'MALE'
  | 'UNKNOWN';

/**
 * The parameters of GET /v24.0/<object>/insights. timeRanges wins over timeRange, which wins over datePreset, as on
 * the platform; without any, LAST_30D.
 */
export type InsightsInput = {
  actionBreakdowns?: Array<InsightsActionBreakdown> | null | undefined;
  breakdowns?: Array<InsightsBreakdown> | null | undefined;
  datePreset?: InsightsDatePreset | null | undefined;
  filtering?: Array<InsightsFilter> | null | undefined;
  level?: InsightsLevel | null | undefined;
  sort?: Array<InsightsSort> | null | undefined;
  timeIncrement?: InsightsTimeIncrement | null | undefined;
  /** One row per this many days (1-90); not with timeIncrement. */
  timeIncrementDays?: number | null | undefined;
  timeRange?: InsightsTimeRange | null | undefined;
  /** Several windows at once: one row per window (and object and breakdown). */
  timeRanges?: Array<InsightsTimeRange> | null | undefined;
};

/** Whose rows a report answers: one per object of this level (the target's own level by default). */
export type InsightsLevel =
  | 'ACCOUNT'
  | 'AD'
  | 'ADSET'
  | 'CAMPAIGN';

/** A numeric field of the report in its /v24.0 name (spend, impressions, reach, ctr, ...). */
export type InsightsSort = {
  direction: InsightsSortDirection;
  field: string;
};

/** Which way a sort goes. */
export type InsightsSortDirection =
  | 'ASCENDING'
  | 'DESCENDING';

/** How rows are cut in time: one row for the whole window (ALL_DAYS, the default) or one per calendar month. For a number of days, timeIncrementDays. */
export type InsightsTimeIncrement =
  | 'ALL_DAYS'
  | 'MONTHLY';

/** Days of the ad account's calendar, YYYY-MM-DD, both included. */
export type InsightsTimeRange = {
  since: string;
  until: string;
};

/** The e-mail address and password of a password account. */
export type LoginInput = {
  email: string;
  password: string;
};

/** What a mention names: a user, a page or a group. */
export type MessageTagType =
  | 'GROUP'
  | 'PAGE'
  | 'USER';

/** How app ads weigh installs against in-app events (multi_optimization_goal_weight). */
export type MultiOptimizationGoalWeight =
  | 'BALANCED'
  | 'PREFER_EVENT'
  | 'PREFER_INSTALL'
  | 'UNDEFINED';

/** Status set on a campaign, ad set or ad. */
export type ObjectStatus =
  | 'ACTIVE'
  | 'ARCHIVED'
  | 'DELETED'
  | 'PAUSED';

/** What delivery optimizes for (optimization_goal); the campaign's objective decides which goals fit. */
export type OptimizationGoal =
  | 'ADVERTISER_SILOED_VALUE'
  | 'AD_RECALL_LIFT'
  | 'APP_INSTALLS'
  | 'APP_INSTALLS_AND_OFFSITE_CONVERSIONS'
  | 'AUTOMATIC_OBJECTIVE'
  | 'CONVERSATIONS'
  | 'DERIVED_EVENTS'
  | 'ENGAGED_USERS'
  | 'EVENT_RESPONSES'
  | 'IMPRESSIONS'
  | 'IN_APP_VALUE'
  | 'LANDING_PAGE_VIEWS'
  | 'LEAD_GENERATION'
  | 'LINK_CLICKS'
  | 'MEANINGFUL_CALL_ATTEMPT'
  | 'MESSAGING_APPOINTMENT_CONVERSION'
  | 'MESSAGING_PURCHASE_CONVERSION'
  | 'NONE'
  | 'OFFSITE_CONVERSIONS'
  | 'PAGE_LIKES'
  | 'POST_ENGAGEMENT'
  | 'PROFILE_AND_PAGE_ENGAGEMENT'
  | 'PROFILE_VISIT'
  | 'QUALITY_CALL'
  | 'QUALITY_LEAD'
  | 'REACH'
  | 'REMINDERS_SET'
  | 'SUBSCRIBERS'
  | 'THRUPLAY'
  | 'VALUE'
  | 'VISIT_INSTAGRAM_PROFILE';

/** A refinement of the optimization goal (optimization_sub_event): video sound on, trip and travel intent, post interaction. */
export type OptimizationSubEvent =
  | 'NONE'
  | 'POST_INTERACTION'
  | 'TRAVEL_INTENT'
  | 'TRAVEL_INTENT_BUCKET_01'
  | 'TRAVEL_INTENT_BUCKET_02'
  | 'TRAVEL_INTENT_BUCKET_03'
  | 'TRAVEL_INTENT_BUCKET_04'
  | 'TRAVEL_INTENT_BUCKET_05'
  | 'TRAVEL_INTENT_NO_DESTINATION_INTENT'
  | 'TRIP_CONSIDERATION'
  | 'VIDEO_SOUND_ON';

/**
 * A member's role in an organization (DECISIONS section 2): OWNER and ADMIN may do everything in it; ADVERTISER runs
 * its ad accounts' campaigns, ad sets, ads and audiences; MODERATOR moderates its pages' comments; AUDITOR reads
 * everything; MEMBER reads the organization and its members.
 */
export type OrganizationRole =
  | 'ADMIN'
  | 'ADVERTISER'
  | 'AUDITOR'
  | 'MEMBER'
  | 'MODERATOR'
  | 'OWNER';

/** Graph API pacing types: standard (the default), day_parting (ad scheduling), no_pacing. */
export type PacingType =
  | 'DAY_PARTING'
  | 'NO_PACING'
  | 'STANDARD';

/** See PromotedObject. */
export type PromotedObjectInput = {
  applicationId?: string | number | null | undefined;
  customConversionId?: string | number | null | undefined;
  customEventType?: string | null | undefined;
  eventId?: string | number | null | undefined;
  instagramProfileId?: string | number | null | undefined;
  objectStoreUrl?: string | null | undefined;
  objectStoryId?: string | null | undefined;
  offerId?: string | number | null | undefined;
  offlineConversionDataSetId?: string | number | null | undefined;
  pageId?: string | number | null | undefined;
  pixelId?: string | number | null | undefined;
  productCatalogId?: string | number | null | undefined;
  productSetId?: string | number | null | undefined;
  whatsappPhoneNumber?: string | null | undefined;
};

/** How copies are named (rename_options): a prefix and suffix around the source's name, on the ad set, its ads too, or none. */
export type RenameOptionsInput = {
  renamePrefix?: string | null | undefined;
  /** ONLY_TOP_LEVEL_RENAME by default. */
  renameStrategy?: RenameStrategy | null | undefined;
  /** " - Copy" when neither prefix nor suffix is given. */
  renameSuffix?: string | null | undefined;
};

/** How copied objects are named (rename_options.rename_strategy). */
export type RenameStrategy =
  | 'DEEP_RENAME'
  | 'NO_RENAME'
  | 'ONLY_TOP_LEVEL_RENAME';

/** The status of a copy and its ads: PAUSED by default, or ACTIVE, or each one's source status. */
export type StatusOption =
  | 'ACTIVE'
  | 'INHERITED_FROM_SOURCE'
  | 'PAUSED';

/** See TargetingEntity: an audience, interest or behaviour by id. */
export type TargetingEntityInput = {
  id: string | number;
  name?: string | null | undefined;
};

/** Targeting of a new or changed ad set (see Targeting); geoLocations with countries is required. */
export type TargetingInput = {
  ageMax?: number | null | undefined;
  ageMin?: number | null | undefined;
  audienceNetworkPositions?: Array<string> | null | undefined;
  behaviors?: Array<TargetingEntityInput> | null | undefined;
  customAudiences?: Array<TargetingEntityInput> | null | undefined;
  devicePlatforms?: Array<string> | null | undefined;
  educationStatuses?: Array<number> | null | undefined;
  excludedCustomAudiences?: Array<TargetingEntityInput> | null | undefined;
  excludedGeoLocations?: GeoLocationsInput | null | undefined;
  exclusions?: FlexibleSpecInput | null | undefined;
  facebookPositions?: Array<string> | null | undefined;
  familyStatuses?: Array<TargetingEntityInput> | null | undefined;
  flexibleSpec?: Array<FlexibleSpecInput> | null | undefined;
  genders?: Array<number> | null | undefined;
  geoLocations: GeoLocationsInput;
  income?: Array<TargetingEntityInput> | null | undefined;
  industries?: Array<TargetingEntityInput> | null | undefined;
  instagramPositions?: Array<string> | null | undefined;
  interests?: Array<TargetingEntityInput> | null | undefined;
  lifeEvents?: Array<TargetingEntityInput> | null | undefined;
  locales?: Array<number> | null | undefined;
  messengerPositions?: Array<string> | null | undefined;
  pageTypes?: Array<string> | null | undefined;
  publisherPlatforms?: Array<string> | null | undefined;
  relationshipStatuses?: Array<number> | null | undefined;
  userOs?: Array<string> | null | undefined;
  workPositions?: Array<TargetingEntityInput> | null | undefined;
};

/** The special ad category delivery is tuned for (tune_for_category); NONE for none. */
export type TuneForCategory =
  | 'CREDIT'
  | 'EMPLOYMENT'
  | 'FINANCIAL_PRODUCTS_SERVICES'
  | 'HOUSING'
  | 'ISSUES_ELECTIONS_POLITICS'
  | 'NONE'
  | 'ONLINE_GAMBLING_AND_GAMING';

/**
 * Changes to an ad set: any subset of the create fields (null leaves a field as it is). A DELETED ad set accepts
 * only name; an ARCHIVED one only name and status DELETED. The ad set stays in its campaign.
 */
export type UpdateAdSetInput = {
  adlabels?: Array<AdLabelInput> | null | undefined;
  adsetSchedule?: Array<AdSetScheduleEntryInput> | null | undefined;
  anchorEventAttributionWindowDays?: number | string | null | undefined;
  /** Ad asset feed (dynamic creative). */
  assetFeedId?: string | number | null | undefined;
  attributionSpec?: Array<AttributionSpecInput> | null | undefined;
  automaticManualState?: AutomaticManualState | null | undefined;
  /** A map (type to value): GraphQL has no map type, so it stays JSON in the Graph API's shape. */
  bidAdjustments?: unknown;
  bidAmount?: number | string | null | undefined;
  bidConstraints?: BidConstraintsInput | null | undefined;
  /** The specification gives no structure for it, so it stays JSON in the Graph API's shape. */
  bidInfo?: unknown;
  bidStrategy?: BidStrategy | null | undefined;
  billingEvent?: BillingEvent | null | undefined;
  /** The specification gives no structure for it, so it stays JSON in the Graph API's shape. */
  brandSafetyConfig?: unknown;
  /** The specification gives no structure for it, so it stays JSON in the Graph API's shape. */
  budgetScheduleSpecs?: unknown;
  budgetSource?: BudgetSource | null | undefined;
  budgetSplitSetId?: string | number | null | undefined;
  campaignAttribution?: string | null | undefined;
  /** The specification gives no structure for it, so it stays JSON in the Graph API's shape. */
  campaignSpec?: unknown;
  /** The ad-set-level status, as the Graph API's update names it (same as status). */
  campaignStatus?: ObjectStatus | null | undefined;
  /** The specification gives no structure for it, so it stays JSON in the Graph API's shape. */
  contextualBundlingSpec?: unknown;
  creativeSequence?: Array<string | number> | null | undefined;
  dailyBudget?: number | string | null | undefined;
  dailyImps?: number | string | null | undefined;
  dailyMinSpendTarget?: number | string | null | undefined;
  dailySpendCap?: number | string | null | undefined;
  destinationType?: DestinationType | null | undefined;
  dsaBeneficiary?: string | null | undefined;
  dsaPayor?: string | null | undefined;
  endTime?: string | null | undefined;
  existingCustomerBudgetPercentage?: number | string | null | undefined;
  frequencyControlSpecs?: Array<FrequencyControlSpecInput> | null | undefined;
  instagramUserId?: string | number | null | undefined;
  isDynamicCreative?: boolean | null | undefined;
  isIncrementalAttributionEnabled?: boolean | null | undefined;
  isSacCfcaTermsCertified?: boolean | null | undefined;
  lifetimeBudget?: number | string | null | undefined;
  lifetimeImps?: number | string | null | undefined;
  lifetimeMinSpendTarget?: number | string | null | undefined;
  lifetimeSpendCap?: number | string | null | undefined;
  maxBudgetSpendPercentage?: number | string | null | undefined;
  minBudgetSpendPercentage?: number | string | null | undefined;
  multiOptimizationGoalWeight?: MultiOptimizationGoalWeight | null | undefined;
  name?: string | null | undefined;
  optimizationGoal?: OptimizationGoal | null | undefined;
  optimizationSubEvent?: OptimizationSubEvent | null | undefined;
  pacingType?: Array<PacingType> | null | undefined;
  promotedObject?: PromotedObjectInput | null | undefined;
  recurringBudgetSemantics?: boolean | null | undefined;
  /** The regulated categories (the SDK's codes, 0 to 12); each needs a beneficiary and a payer in regionalRegulationIdentities. */
  regionalRegulatedCategories?: Array<string> | null | undefined;
  /** Beneficiary and payer identity ids by regulation (australia_finserv_beneficiary, ..._payer, ...): a map, so JSON. */
  regionalRegulationIdentities?: unknown;
  /** At most 2,048 characters. */
  reviewFeedback?: string | null | undefined;
  rfPredictionId?: string | number | null | undefined;
  startTime?: string | null | undefined;
  status?: ObjectStatus | null | undefined;
  targeting?: TargetingInput | null | undefined;
  timeBasedAdRotationIdBlocks?: Array<Array<number | string>> | null | undefined;
  timeBasedAdRotationIntervals?: Array<number | string> | null | undefined;
  tuneForCategory?: TuneForCategory | null | undefined;
  useNewAppClick?: boolean | null | undefined;
  valueRuleSetId?: string | number | null | undefined;
  valueRulesApplied?: boolean | null | undefined;
};

export type AdAccountSummaryFragment = { id: string, actId: string, name: string, currency: string, timezoneName: string, accountStatus: number };

export type AdSetFieldsFragment = { id: string, name: string, status: ObjectStatus, effectiveStatus: EffectiveStatus, billingEvent: BillingEvent, optimizationGoal: OptimizationGoal | null, bidStrategy: BidStrategy | null, bidAmount: number | string | null, dailyBudget: number | string | null, lifetimeBudget: number | string | null, startTime: string | null, endTime: string | null, sourceAdSetId: string | null, updatedTime: string, targeting: { ageMin: number | null, ageMax: number | null, genders: Array<number> | null, locales: Array<number> | null, publisherPlatforms: Array<string> | null, facebookPositions: Array<string> | null, instagramPositions: Array<string> | null, audienceNetworkPositions: Array<string> | null, messengerPositions: Array<string> | null, devicePlatforms: Array<string> | null, userOs: Array<string> | null, pageTypes: Array<string> | null, relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, geoLocations: { countries: Array<string> | null, countryGroups: Array<string> | null, locationTypes: Array<string> | null, regions: Array<{ key: string, name: string | null }> | null, cities: Array<{ key: string, name: string | null, radius: number | null, distanceUnit: string | null }> | null, zips: Array<{ key: string, name: string | null }> | null }, excludedGeoLocations: { countries: Array<string> | null, countryGroups: Array<string> | null, locationTypes: Array<string> | null, regions: Array<{ key: string, name: string | null }> | null, cities: Array<{ key: string, name: string | null, radius: number | null, distanceUnit: string | null }> | null, zips: Array<{ key: string, name: string | null }> | null } | null, excludedCustomAudiences: Array<{ id: string, name: string | null }> | null, flexibleSpec: Array<{ relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null }> | null, exclusions: { relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null } | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null }, campaign: { id: string, name: string }, issues: Array<{ errorCode: number, errorSummary: string }> };

export type AdAccountsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type AdAccountsQuery = { adAccounts: { totalCount: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, edges: Array<{ cursor: string, node: { id: string, actId: string, name: string, currency: string, timezoneName: string, accountStatus: number } }> } };

export type AdSetsQueryVariables = Exact<{
  accountId: string | number;
  effectiveStatus?: Array<EffectiveStatus> | EffectiveStatus | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type AdSetsQuery = { adSets: { totalCount: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, edges: Array<{ cursor: string, node: { id: string, name: string, status: ObjectStatus, effectiveStatus: EffectiveStatus, billingEvent: BillingEvent, optimizationGoal: OptimizationGoal | null, bidStrategy: BidStrategy | null, bidAmount: number | string | null, dailyBudget: number | string | null, lifetimeBudget: number | string | null, startTime: string | null, endTime: string | null, sourceAdSetId: string | null, updatedTime: string, targeting: { ageMin: number | null, ageMax: number | null, genders: Array<number> | null, locales: Array<number> | null, publisherPlatforms: Array<string> | null, facebookPositions: Array<string> | null, instagramPositions: Array<string> | null, audienceNetworkPositions: Array<string> | null, messengerPositions: Array<string> | null, devicePlatforms: Array<string> | null, userOs: Array<string> | null, pageTypes: Array<string> | null, relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, geoLocations: { countries: Array<string> | null, countryGroups: Array<string> | null, locationTypes: Array<string> | null, regions: Array<{ key: string, name: string | null }> | null, cities: Array<{ key: string, name: string | null, radius: number | null, distanceUnit: string | null }> | null, zips: Array<{ key: string, name: string | null }> | null }, excludedGeoLocations: { countries: Array<string> | null, countryGroups: Array<string> | null, locationTypes: Array<string> | null, regions: Array<{ key: string, name: string | null }> | null, cities: Array<{ key: string, name: string | null, radius: number | null, distanceUnit: string | null }> | null, zips: Array<{ key: string, name: string | null }> | null } | null, excludedCustomAudiences: Array<{ id: string, name: string | null }> | null, flexibleSpec: Array<{ relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null }> | null, exclusions: { relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null } | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null }, campaign: { id: string, name: string }, issues: Array<{ errorCode: number, errorSummary: string }> } }> } };

export type CreateAdSetMutationVariables = Exact<{
  accountId: string | number;
  input: CreateAdSetInput;
}>;


export type CreateAdSetMutation = { createAdSet: { id: string, name: string, status: ObjectStatus, effectiveStatus: EffectiveStatus, billingEvent: BillingEvent, optimizationGoal: OptimizationGoal | null, bidStrategy: BidStrategy | null, bidAmount: number | string | null, dailyBudget: number | string | null, lifetimeBudget: number | string | null, startTime: string | null, endTime: string | null, sourceAdSetId: string | null, updatedTime: string, targeting: { ageMin: number | null, ageMax: number | null, genders: Array<number> | null, locales: Array<number> | null, publisherPlatforms: Array<string> | null, facebookPositions: Array<string> | null, instagramPositions: Array<string> | null, audienceNetworkPositions: Array<string> | null, messengerPositions: Array<string> | null, devicePlatforms: Array<string> | null, userOs: Array<string> | null, pageTypes: Array<string> | null, relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, geoLocations: { countries: Array<string> | null, countryGroups: Array<string> | null, locationTypes: Array<string> | null, regions: Array<{ key: string, name: string | null }> | null, cities: Array<{ key: string, name: string | null, radius: number | null, distanceUnit: string | null }> | null, zips: Array<{ key: string, name: string | null }> | null }, excludedGeoLocations: { countries: Array<string> | null, countryGroups: Array<string> | null, locationTypes: Array<string> | null, regions: Array<{ key: string, name: string | null }> | null, cities: Array<{ key: string, name: string | null, radius: number | null, distanceUnit: string | null }> | null, zips: Array<{ key: string, name: string | null }> | null } | null, excludedCustomAudiences: Array<{ id: string, name: string | null }> | null, flexibleSpec: Array<{ relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null }> | null, exclusions: { relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null } | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null }, campaign: { id: string, name: string }, issues: Array<{ errorCode: number, errorSummary: string }> } };

export type UpdateAdSetMutationVariables = Exact<{
  id: string | number;
  input: UpdateAdSetInput;
}>;


export type UpdateAdSetMutation = { updateAdSet: { id: string, name: string, status: ObjectStatus, effectiveStatus: EffectiveStatus, billingEvent: BillingEvent, optimizationGoal: OptimizationGoal | null, bidStrategy: BidStrategy | null, bidAmount: number | string | null, dailyBudget: number | string | null, lifetimeBudget: number | string | null, startTime: string | null, endTime: string | null, sourceAdSetId: string | null, updatedTime: string, targeting: { ageMin: number | null, ageMax: number | null, genders: Array<number> | null, locales: Array<number> | null, publisherPlatforms: Array<string> | null, facebookPositions: Array<string> | null, instagramPositions: Array<string> | null, audienceNetworkPositions: Array<string> | null, messengerPositions: Array<string> | null, devicePlatforms: Array<string> | null, userOs: Array<string> | null, pageTypes: Array<string> | null, relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, geoLocations: { countries: Array<string> | null, countryGroups: Array<string> | null, locationTypes: Array<string> | null, regions: Array<{ key: string, name: string | null }> | null, cities: Array<{ key: string, name: string | null, radius: number | null, distanceUnit: string | null }> | null, zips: Array<{ key: string, name: string | null }> | null }, excludedGeoLocations: { countries: Array<string> | null, countryGroups: Array<string> | null, locationTypes: Array<string> | null, regions: Array<{ key: string, name: string | null }> | null, cities: Array<{ key: string, name: string | null, radius: number | null, distanceUnit: string | null }> | null, zips: Array<{ key: string, name: string | null }> | null } | null, excludedCustomAudiences: Array<{ id: string, name: string | null }> | null, flexibleSpec: Array<{ relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null }> | null, exclusions: { relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null } | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null }, campaign: { id: string, name: string }, issues: Array<{ errorCode: number, errorSummary: string }> } };

export type CopyAdSetMutationVariables = Exact<{
  id: string | number;
  input?: CopyAdSetInput | null | undefined;
  async?: boolean | null | undefined;
}>;


export type CopyAdSetMutation = { copyAdSet: { copiedAdSet: { id: string, name: string, status: ObjectStatus, effectiveStatus: EffectiveStatus, billingEvent: BillingEvent, optimizationGoal: OptimizationGoal | null, bidStrategy: BidStrategy | null, bidAmount: number | string | null, dailyBudget: number | string | null, lifetimeBudget: number | string | null, startTime: string | null, endTime: string | null, sourceAdSetId: string | null, updatedTime: string, targeting: { ageMin: number | null, ageMax: number | null, genders: Array<number> | null, locales: Array<number> | null, publisherPlatforms: Array<string> | null, facebookPositions: Array<string> | null, instagramPositions: Array<string> | null, audienceNetworkPositions: Array<string> | null, messengerPositions: Array<string> | null, devicePlatforms: Array<string> | null, userOs: Array<string> | null, pageTypes: Array<string> | null, relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, geoLocations: { countries: Array<string> | null, countryGroups: Array<string> | null, locationTypes: Array<string> | null, regions: Array<{ key: string, name: string | null }> | null, cities: Array<{ key: string, name: string | null, radius: number | null, distanceUnit: string | null }> | null, zips: Array<{ key: string, name: string | null }> | null }, excludedGeoLocations: { countries: Array<string> | null, countryGroups: Array<string> | null, locationTypes: Array<string> | null, regions: Array<{ key: string, name: string | null }> | null, cities: Array<{ key: string, name: string | null, radius: number | null, distanceUnit: string | null }> | null, zips: Array<{ key: string, name: string | null }> | null } | null, excludedCustomAudiences: Array<{ id: string, name: string | null }> | null, flexibleSpec: Array<{ relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null }> | null, exclusions: { relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null } | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null }, campaign: { id: string, name: string }, issues: Array<{ errorCode: number, errorSummary: string }> } | null, adObjectIds: Array<{ adObjectType: AdObjectType, sourceId: string, copiedId: string }>, request: { id: string, status: AsyncRequestStatus } | null } };

export type GeoLocationsFieldsFragment = { countries: Array<string> | null, countryGroups: Array<string> | null, locationTypes: Array<string> | null, regions: Array<{ key: string, name: string | null }> | null, cities: Array<{ key: string, name: string | null, radius: number | null, distanceUnit: string | null }> | null, zips: Array<{ key: string, name: string | null }> | null };

export type TargetingEntityFieldsFragment = { id: string, name: string | null };

type DetailedTargetingFields_FlexibleSpec_Fragment = { relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null };

type DetailedTargetingFields_Targeting_Fragment = { relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null };

export type DetailedTargetingFieldsFragment =
  | DetailedTargetingFields_FlexibleSpec_Fragment
  | DetailedTargetingFields_Targeting_Fragment
;

export type TargetingFieldsFragment = { ageMin: number | null, ageMax: number | null, genders: Array<number> | null, locales: Array<number> | null, publisherPlatforms: Array<string> | null, facebookPositions: Array<string> | null, instagramPositions: Array<string> | null, audienceNetworkPositions: Array<string> | null, messengerPositions: Array<string> | null, devicePlatforms: Array<string> | null, userOs: Array<string> | null, pageTypes: Array<string> | null, relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, geoLocations: { countries: Array<string> | null, countryGroups: Array<string> | null, locationTypes: Array<string> | null, regions: Array<{ key: string, name: string | null }> | null, cities: Array<{ key: string, name: string | null, radius: number | null, distanceUnit: string | null }> | null, zips: Array<{ key: string, name: string | null }> | null }, excludedGeoLocations: { countries: Array<string> | null, countryGroups: Array<string> | null, locationTypes: Array<string> | null, regions: Array<{ key: string, name: string | null }> | null, cities: Array<{ key: string, name: string | null, radius: number | null, distanceUnit: string | null }> | null, zips: Array<{ key: string, name: string | null }> | null } | null, excludedCustomAudiences: Array<{ id: string, name: string | null }> | null, flexibleSpec: Array<{ relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null }> | null, exclusions: { relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null } | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null };

export type AdSetFormFieldsFragment = { id: string, name: string, status: ObjectStatus, billingEvent: BillingEvent, optimizationGoal: OptimizationGoal | null, optimizationSubEvent: OptimizationSubEvent | null, destinationType: DestinationType | null, bidStrategy: BidStrategy | null, bidAmount: number | string | null, bidAdjustments: unknown, dailyBudget: number | string | null, lifetimeBudget: number | string | null, dailyMinSpendTarget: number | string | null, dailySpendCap: number | string | null, lifetimeMinSpendTarget: number | string | null, lifetimeSpendCap: number | string | null, dailyImps: number | string | null, lifetimeImps: number | string | null, minBudgetSpendPercentage: number | string | null, maxBudgetSpendPercentage: number | string | null, existingCustomerBudgetPercentage: number | string | null, startTime: string | null, endTime: string | null, dsaPayor: string | null, dsaBeneficiary: string | null, automaticManualState: AutomaticManualState | null, brandSafetyConfig: unknown, budgetScheduleSpecs: unknown, contextualBundlingSpec: unknown, creativeSequence: Array<string> | null, isDynamicCreative: boolean | null, multiOptimizationGoalWeight: MultiOptimizationGoalWeight | null, pacingType: Array<PacingType> | null, timeBasedAdRotationIdBlocks: Array<Array<number | string>> | null, timeBasedAdRotationIntervals: Array<number | string> | null, tuneForCategory: TuneForCategory | null, useNewAppClick: boolean | null, targeting: { ageMin: number | null, ageMax: number | null, genders: Array<number> | null, locales: Array<number> | null, publisherPlatforms: Array<string> | null, facebookPositions: Array<string> | null, instagramPositions: Array<string> | null, audienceNetworkPositions: Array<string> | null, messengerPositions: Array<string> | null, devicePlatforms: Array<string> | null, userOs: Array<string> | null, pageTypes: Array<string> | null, relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, geoLocations: { countries: Array<string> | null, countryGroups: Array<string> | null, locationTypes: Array<string> | null, regions: Array<{ key: string, name: string | null }> | null, cities: Array<{ key: string, name: string | null, radius: number | null, distanceUnit: string | null }> | null, zips: Array<{ key: string, name: string | null }> | null }, excludedGeoLocations: { countries: Array<string> | null, countryGroups: Array<string> | null, locationTypes: Array<string> | null, regions: Array<{ key: string, name: string | null }> | null, cities: Array<{ key: string, name: string | null, radius: number | null, distanceUnit: string | null }> | null, zips: Array<{ key: string, name: string | null }> | null } | null, excludedCustomAudiences: Array<{ id: string, name: string | null }> | null, flexibleSpec: Array<{ relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null }> | null, exclusions: { relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null } | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null }, promotedObject: { pageId: string | null, applicationId: string | null, objectStoreUrl: string | null, pixelId: string | null, customConversionId: string | null, customEventType: string | null, objectStoryId: string | null, productCatalogId: string | null, productSetId: string | null, eventId: string | null, offerId: string | null, instagramProfileId: string | null, whatsappPhoneNumber: string | null, offlineConversionDataSetId: string | null } | null, bidConstraints: { roasAverageFloor: number | null } | null, adlabels: Array<{ id: string | null, name: string | null }> | null, adsetSchedule: Array<{ startMinute: number, endMinute: number, days: Array<number>, timezoneType: string | null }> | null, attributionSpec: Array<{ eventType: string, windowDays: number }> | null, frequencyControlSpecs: Array<{ event: string, intervalDays: number, maxFrequency: number }> | null };

export type AdSetFormQueryVariables = Exact<{
  id: string | number;
}>;


export type AdSetFormQuery = { adSet: { campaignId: string, updatedTime: string, id: string, name: string, status: ObjectStatus, billingEvent: BillingEvent, optimizationGoal: OptimizationGoal | null, optimizationSubEvent: OptimizationSubEvent | null, destinationType: DestinationType | null, bidStrategy: BidStrategy | null, bidAmount: number | string | null, bidAdjustments: unknown, dailyBudget: number | string | null, lifetimeBudget: number | string | null, dailyMinSpendTarget: number | string | null, dailySpendCap: number | string | null, lifetimeMinSpendTarget: number | string | null, lifetimeSpendCap: number | string | null, dailyImps: number | string | null, lifetimeImps: number | string | null, minBudgetSpendPercentage: number | string | null, maxBudgetSpendPercentage: number | string | null, existingCustomerBudgetPercentage: number | string | null, startTime: string | null, endTime: string | null, dsaPayor: string | null, dsaBeneficiary: string | null, automaticManualState: AutomaticManualState | null, brandSafetyConfig: unknown, budgetScheduleSpecs: unknown, contextualBundlingSpec: unknown, creativeSequence: Array<string> | null, isDynamicCreative: boolean | null, multiOptimizationGoalWeight: MultiOptimizationGoalWeight | null, pacingType: Array<PacingType> | null, timeBasedAdRotationIdBlocks: Array<Array<number | string>> | null, timeBasedAdRotationIntervals: Array<number | string> | null, tuneForCategory: TuneForCategory | null, useNewAppClick: boolean | null, targeting: { ageMin: number | null, ageMax: number | null, genders: Array<number> | null, locales: Array<number> | null, publisherPlatforms: Array<string> | null, facebookPositions: Array<string> | null, instagramPositions: Array<string> | null, audienceNetworkPositions: Array<string> | null, messengerPositions: Array<string> | null, devicePlatforms: Array<string> | null, userOs: Array<string> | null, pageTypes: Array<string> | null, relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, geoLocations: { countries: Array<string> | null, countryGroups: Array<string> | null, locationTypes: Array<string> | null, regions: Array<{ key: string, name: string | null }> | null, cities: Array<{ key: string, name: string | null, radius: number | null, distanceUnit: string | null }> | null, zips: Array<{ key: string, name: string | null }> | null }, excludedGeoLocations: { countries: Array<string> | null, countryGroups: Array<string> | null, locationTypes: Array<string> | null, regions: Array<{ key: string, name: string | null }> | null, cities: Array<{ key: string, name: string | null, radius: number | null, distanceUnit: string | null }> | null, zips: Array<{ key: string, name: string | null }> | null } | null, excludedCustomAudiences: Array<{ id: string, name: string | null }> | null, flexibleSpec: Array<{ relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null }> | null, exclusions: { relationshipStatuses: Array<number> | null, educationStatuses: Array<number> | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null } | null, interests: Array<{ id: string, name: string | null }> | null, behaviors: Array<{ id: string, name: string | null }> | null, lifeEvents: Array<{ id: string, name: string | null }> | null, industries: Array<{ id: string, name: string | null }> | null, income: Array<{ id: string, name: string | null }> | null, familyStatuses: Array<{ id: string, name: string | null }> | null, workPositions: Array<{ id: string, name: string | null }> | null, customAudiences: Array<{ id: string, name: string | null }> | null }, promotedObject: { pageId: string | null, applicationId: string | null, objectStoreUrl: string | null, pixelId: string | null, customConversionId: string | null, customEventType: string | null, objectStoryId: string | null, productCatalogId: string | null, productSetId: string | null, eventId: string | null, offerId: string | null, instagramProfileId: string | null, whatsappPhoneNumber: string | null, offlineConversionDataSetId: string | null } | null, bidConstraints: { roasAverageFloor: number | null } | null, adlabels: Array<{ id: string | null, name: string | null }> | null, adsetSchedule: Array<{ startMinute: number, endMinute: number, days: Array<number>, timezoneType: string | null }> | null, attributionSpec: Array<{ eventType: string, windowDays: number }> | null, frequencyControlSpecs: Array<{ event: string, intervalDays: number, maxFrequency: number }> | null } | null };

export type CommentFieldsFragment = { id: string, message: string | null, attachment: unknown, isHidden: boolean, likeCount: number, commentCount: number, userLikes: boolean, canRemove: boolean, canHide: boolean | null, createdTime: string, updatedTime: string, messageTags: Array<{ id: string, name: string, type: MessageTagType, offset: number, length: number }>, from:
    | { id: string, name: string }
    | { id: string, name: string }
   | null };

export type PostCommentsQueryVariables = Exact<{
  postId: string | number;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type PostCommentsQuery = { post: { id: string, comments: { totalCount: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, edges: Array<{ cursor: string, node: { id: string, message: string | null, attachment: unknown, isHidden: boolean, likeCount: number, commentCount: number, userLikes: boolean, canRemove: boolean, canHide: boolean | null, createdTime: string, updatedTime: string, messageTags: Array<{ id: string, name: string, type: MessageTagType, offset: number, length: number }>, from:
            | { id: string, name: string }
            | { id: string, name: string }
           | null } }> } } | null };

export type PublishCommentMutationVariables = Exact<{
  objectId: string | number;
  input: CommentContentInput;
}>;


export type PublishCommentMutation = { publishComment: { id: string, message: string | null, attachment: unknown, isHidden: boolean, likeCount: number, commentCount: number, userLikes: boolean, canRemove: boolean, canHide: boolean | null, createdTime: string, updatedTime: string, messageTags: Array<{ id: string, name: string, type: MessageTagType, offset: number, length: number }>, from:
      | { id: string, name: string }
      | { id: string, name: string }
     | null } };

export type EditCommentMutationVariables = Exact<{
  id: string | number;
  input: CommentContentInput;
}>;


export type EditCommentMutation = { editComment: { id: string, message: string | null, attachment: unknown, isHidden: boolean, likeCount: number, commentCount: number, userLikes: boolean, canRemove: boolean, canHide: boolean | null, createdTime: string, updatedTime: string, messageTags: Array<{ id: string, name: string, type: MessageTagType, offset: number, length: number }>, from:
      | { id: string, name: string }
      | { id: string, name: string }
     | null } };

export type SetCommentHiddenMutationVariables = Exact<{
  id: string | number;
  hidden: boolean;
}>;


export type SetCommentHiddenMutation = { setCommentHidden: { id: string, message: string | null, attachment: unknown, isHidden: boolean, likeCount: number, commentCount: number, userLikes: boolean, canRemove: boolean, canHide: boolean | null, createdTime: string, updatedTime: string, messageTags: Array<{ id: string, name: string, type: MessageTagType, offset: number, length: number }>, from:
      | { id: string, name: string }
      | { id: string, name: string }
     | null } };

export type PageInfoFieldsFragment = { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null };

export type ConvertDateFormatQueryVariables = Exact<{
  format: string;
  lenient?: boolean | null | undefined;
}>;


export type ConvertDateFormatQuery = { convertDateFormat: { input: string, output: string | null, bestEffortOutput: string, exact: boolean, lenient: boolean, usable: boolean, parts: Array<{ input: string, output: string | null, severity: DateFormatSeverity, changes: Array<{ letter: string, from: string, to: string, why: string }>, findings: Array<{ severity: DateFormatSeverity, message: string }>, suggestions: Array<{ builtIn: string, message: string }> }> } };

export type SignInMutationVariables = Exact<{
  input: LoginInput;
}>;


export type SignInMutation = { login: { sessionToken: string, expiresAt: string } };

export type SignOutMutationVariables = Exact<{ [key: string]: never; }>;


export type SignOutMutation = { logout: boolean };

export type RequestOneTimePasscodeMutationVariables = Exact<{
  email: string;
}>;


export type RequestOneTimePasscodeMutation = { requestOneTimePasscode: boolean };

export type ChangePasswordWithOneTimePasscodeMutationVariables = Exact<{
  input: ChangePasswordWithOneTimePasscodeInput;
}>;


export type ChangePasswordWithOneTimePasscodeMutation = { changePasswordWithOneTimePasscode: boolean };

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { me: { id: string, email: string, name: string, memberships: Array<{ id: string, role: OrganizationRole, organization: { id: string, name: string } }> } | null };

export type InsightsRowFieldsFragment = { dateStart: string, dateStop: string, adId: string | null, adName: string | null, age: InsightsAge | null, gender: InsightsGender | null, impressions: number | string, reach: number | string | null, frequency: number | null, clicks: number | string, ctr: number | null, spend: string, cpc: string | null, cpm: string | null, actions: Array<{ actionType: string, value: number | string }> };

export type AdSetInsightsQueryVariables = Exact<{
  adSetId: string | number;
  input: InsightsInput;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type AdSetInsightsQuery = { adSet: { id: string, name: string, insights: { pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, nodes: Array<{ dateStart: string, dateStop: string, adId: string | null, adName: string | null, age: InsightsAge | null, gender: InsightsGender | null, impressions: number | string, reach: number | string | null, frequency: number | null, clicks: number | string, ctr: number | null, spend: string, cpc: string | null, cpm: string | null, actions: Array<{ actionType: string, value: number | string }> }>, summary: { impressions: number | string, reach: number | string | null, spend: string } | null } } | null };

export const AdAccountSummaryFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AdAccountSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AdAccount"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"actId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"timezoneName"}},{"kind":"Field","name":{"kind":"Name","value":"accountStatus"}}]}}]} as unknown as DocumentNode<AdAccountSummaryFragment, unknown>;
export const GeoLocationsFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"GeoLocationsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"GeoLocations"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"countries"}},{"kind":"Field","name":{"kind":"Name","value":"countryGroups"}},{"kind":"Field","name":{"kind":"Name","value":"regions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"radius"}},{"kind":"Field","name":{"kind":"Name","value":"distanceUnit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"zips"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"locationTypes"}}]}}]} as unknown as DocumentNode<GeoLocationsFieldsFragment, unknown>;
export const TargetingEntityFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingEntityFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TargetingEntity"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]} as unknown as DocumentNode<TargetingEntityFieldsFragment, unknown>;
export const DetailedTargetingFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DetailedTargetingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DetailedTargeting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"interests"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"behaviors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lifeEvents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"industries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"income"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"familyStatuses"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workPositions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"customAudiences"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"relationshipStatuses"}},{"kind":"Field","name":{"kind":"Name","value":"educationStatuses"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingEntityFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TargetingEntity"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]} as unknown as DocumentNode<DetailedTargetingFieldsFragment, unknown>;
export const TargetingFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Targeting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"geoLocations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GeoLocationsFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"excludedGeoLocations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GeoLocationsFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"ageMin"}},{"kind":"Field","name":{"kind":"Name","value":"ageMax"}},{"kind":"Field","name":{"kind":"Name","value":"genders"}},{"kind":"Field","name":{"kind":"Name","value":"locales"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}},{"kind":"Field","name":{"kind":"Name","value":"excludedCustomAudiences"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"flexibleSpec"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"exclusions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"publisherPlatforms"}},{"kind":"Field","name":{"kind":"Name","value":"facebookPositions"}},{"kind":"Field","name":{"kind":"Name","value":"instagramPositions"}},{"kind":"Field","name":{"kind":"Name","value":"audienceNetworkPositions"}},{"kind":"Field","name":{"kind":"Name","value":"messengerPositions"}},{"kind":"Field","name":{"kind":"Name","value":"devicePlatforms"}},{"kind":"Field","name":{"kind":"Name","value":"userOs"}},{"kind":"Field","name":{"kind":"Name","value":"pageTypes"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingEntityFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TargetingEntity"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"GeoLocationsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"GeoLocations"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"countries"}},{"kind":"Field","name":{"kind":"Name","value":"countryGroups"}},{"kind":"Field","name":{"kind":"Name","value":"regions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"radius"}},{"kind":"Field","name":{"kind":"Name","value":"distanceUnit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"zips"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"locationTypes"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DetailedTargetingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DetailedTargeting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"interests"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"behaviors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lifeEvents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"industries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"income"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"familyStatuses"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workPositions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"customAudiences"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"relationshipStatuses"}},{"kind":"Field","name":{"kind":"Name","value":"educationStatuses"}}]}}]} as unknown as DocumentNode<TargetingFieldsFragment, unknown>;
export const AdSetFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AdSetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AdSet"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"effectiveStatus"}},{"kind":"Field","name":{"kind":"Name","value":"billingEvent"}},{"kind":"Field","name":{"kind":"Name","value":"optimizationGoal"}},{"kind":"Field","name":{"kind":"Name","value":"bidStrategy"}},{"kind":"Field","name":{"kind":"Name","value":"bidAmount"}},{"kind":"Field","name":{"kind":"Name","value":"dailyBudget"}},{"kind":"Field","name":{"kind":"Name","value":"lifetimeBudget"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"targeting"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sourceAdSetId"}},{"kind":"Field","name":{"kind":"Name","value":"campaign"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"issues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"errorCode"}},{"kind":"Field","name":{"kind":"Name","value":"errorSummary"}}]}},{"kind":"Field","name":{"kind":"Name","value":"updatedTime"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"GeoLocationsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"GeoLocations"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"countries"}},{"kind":"Field","name":{"kind":"Name","value":"countryGroups"}},{"kind":"Field","name":{"kind":"Name","value":"regions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"radius"}},{"kind":"Field","name":{"kind":"Name","value":"distanceUnit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"zips"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"locationTypes"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingEntityFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TargetingEntity"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DetailedTargetingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DetailedTargeting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"interests"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"behaviors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lifeEvents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"industries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"income"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"familyStatuses"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workPositions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"customAudiences"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"relationshipStatuses"}},{"kind":"Field","name":{"kind":"Name","value":"educationStatuses"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Targeting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"geoLocations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GeoLocationsFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"excludedGeoLocations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GeoLocationsFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"ageMin"}},{"kind":"Field","name":{"kind":"Name","value":"ageMax"}},{"kind":"Field","name":{"kind":"Name","value":"genders"}},{"kind":"Field","name":{"kind":"Name","value":"locales"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}},{"kind":"Field","name":{"kind":"Name","value":"excludedCustomAudiences"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"flexibleSpec"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"exclusions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"publisherPlatforms"}},{"kind":"Field","name":{"kind":"Name","value":"facebookPositions"}},{"kind":"Field","name":{"kind":"Name","value":"instagramPositions"}},{"kind":"Field","name":{"kind":"Name","value":"audienceNetworkPositions"}},{"kind":"Field","name":{"kind":"Name","value":"messengerPositions"}},{"kind":"Field","name":{"kind":"Name","value":"devicePlatforms"}},{"kind":"Field","name":{"kind":"Name","value":"userOs"}},{"kind":"Field","name":{"kind":"Name","value":"pageTypes"}}]}}]} as unknown as DocumentNode<AdSetFieldsFragment, unknown>;
export const AdSetFormFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AdSetFormFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AdSet"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"billingEvent"}},{"kind":"Field","name":{"kind":"Name","value":"optimizationGoal"}},{"kind":"Field","name":{"kind":"Name","value":"optimizationSubEvent"}},{"kind":"Field","name":{"kind":"Name","value":"destinationType"}},{"kind":"Field","name":{"kind":"Name","value":"targeting"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"promotedObject"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pageId"}},{"kind":"Field","name":{"kind":"Name","value":"applicationId"}},{"kind":"Field","name":{"kind":"Name","value":"objectStoreUrl"}},{"kind":"Field","name":{"kind":"Name","value":"pixelId"}},{"kind":"Field","name":{"kind":"Name","value":"customConversionId"}},{"kind":"Field","name":{"kind":"Name","value":"customEventType"}},{"kind":"Field","name":{"kind":"Name","value":"objectStoryId"}},{"kind":"Field","name":{"kind":"Name","value":"productCatalogId"}},{"kind":"Field","name":{"kind":"Name","value":"productSetId"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"offerId"}},{"kind":"Field","name":{"kind":"Name","value":"instagramProfileId"}},{"kind":"Field","name":{"kind":"Name","value":"whatsappPhoneNumber"}},{"kind":"Field","name":{"kind":"Name","value":"offlineConversionDataSetId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"bidStrategy"}},{"kind":"Field","name":{"kind":"Name","value":"bidAmount"}},{"kind":"Field","name":{"kind":"Name","value":"bidConstraints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"roasAverageFloor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"bidAdjustments"}},{"kind":"Field","name":{"kind":"Name","value":"dailyBudget"}},{"kind":"Field","name":{"kind":"Name","value":"lifetimeBudget"}},{"kind":"Field","name":{"kind":"Name","value":"dailyMinSpendTarget"}},{"kind":"Field","name":{"kind":"Name","value":"dailySpendCap"}},{"kind":"Field","name":{"kind":"Name","value":"lifetimeMinSpendTarget"}},{"kind":"Field","name":{"kind":"Name","value":"lifetimeSpendCap"}},{"kind":"Field","name":{"kind":"Name","value":"dailyImps"}},{"kind":"Field","name":{"kind":"Name","value":"lifetimeImps"}},{"kind":"Field","name":{"kind":"Name","value":"minBudgetSpendPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"maxBudgetSpendPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"existingCustomerBudgetPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"dsaPayor"}},{"kind":"Field","name":{"kind":"Name","value":"dsaBeneficiary"}},{"kind":"Field","name":{"kind":"Name","value":"adlabels"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"adsetSchedule"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"startMinute"}},{"kind":"Field","name":{"kind":"Name","value":"endMinute"}},{"kind":"Field","name":{"kind":"Name","value":"days"}},{"kind":"Field","name":{"kind":"Name","value":"timezoneType"}}]}},{"kind":"Field","name":{"kind":"Name","value":"attributionSpec"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"windowDays"}}]}},{"kind":"Field","name":{"kind":"Name","value":"automaticManualState"}},{"kind":"Field","name":{"kind":"Name","value":"brandSafetyConfig"}},{"kind":"Field","name":{"kind":"Name","value":"budgetScheduleSpecs"}},{"kind":"Field","name":{"kind":"Name","value":"contextualBundlingSpec"}},{"kind":"Field","name":{"kind":"Name","value":"creativeSequence"}},{"kind":"Field","name":{"kind":"Name","value":"frequencyControlSpecs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"intervalDays"}},{"kind":"Field","name":{"kind":"Name","value":"maxFrequency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"isDynamicCreative"}},{"kind":"Field","name":{"kind":"Name","value":"multiOptimizationGoalWeight"}},{"kind":"Field","name":{"kind":"Name","value":"pacingType"}},{"kind":"Field","name":{"kind":"Name","value":"timeBasedAdRotationIdBlocks"}},{"kind":"Field","name":{"kind":"Name","value":"timeBasedAdRotationIntervals"}},{"kind":"Field","name":{"kind":"Name","value":"tuneForCategory"}},{"kind":"Field","name":{"kind":"Name","value":"useNewAppClick"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"GeoLocationsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"GeoLocations"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"countries"}},{"kind":"Field","name":{"kind":"Name","value":"countryGroups"}},{"kind":"Field","name":{"kind":"Name","value":"regions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"radius"}},{"kind":"Field","name":{"kind":"Name","value":"distanceUnit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"zips"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"locationTypes"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingEntityFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TargetingEntity"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DetailedTargetingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DetailedTargeting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"interests"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"behaviors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lifeEvents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"industries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"income"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"familyStatuses"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workPositions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"customAudiences"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"relationshipStatuses"}},{"kind":"Field","name":{"kind":"Name","value":"educationStatuses"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Targeting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"geoLocations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GeoLocationsFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"excludedGeoLocations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GeoLocationsFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"ageMin"}},{"kind":"Field","name":{"kind":"Name","value":"ageMax"}},{"kind":"Field","name":{"kind":"Name","value":"genders"}},{"kind":"Field","name":{"kind":"Name","value":"locales"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}},{"kind":"Field","name":{"kind":"Name","value":"excludedCustomAudiences"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"flexibleSpec"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"exclusions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"publisherPlatforms"}},{"kind":"Field","name":{"kind":"Name","value":"facebookPositions"}},{"kind":"Field","name":{"kind":"Name","value":"instagramPositions"}},{"kind":"Field","name":{"kind":"Name","value":"audienceNetworkPositions"}},{"kind":"Field","name":{"kind":"Name","value":"messengerPositions"}},{"kind":"Field","name":{"kind":"Name","value":"devicePlatforms"}},{"kind":"Field","name":{"kind":"Name","value":"userOs"}},{"kind":"Field","name":{"kind":"Name","value":"pageTypes"}}]}}]} as unknown as DocumentNode<AdSetFormFieldsFragment, unknown>;
export const CommentFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CommentFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Comment"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"attachment"}},{"kind":"Field","name":{"kind":"Name","value":"isHidden"}},{"kind":"Field","name":{"kind":"Name","value":"likeCount"}},{"kind":"Field","name":{"kind":"Name","value":"commentCount"}},{"kind":"Field","name":{"kind":"Name","value":"userLikes"}},{"kind":"Field","name":{"kind":"Name","value":"canRemove"}},{"kind":"Field","name":{"kind":"Name","value":"canHide"}},{"kind":"Field","name":{"kind":"Name","value":"messageTags"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"offset"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}},{"kind":"Field","name":{"kind":"Name","value":"from"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Person"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Page"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdTime"}},{"kind":"Field","name":{"kind":"Name","value":"updatedTime"}}]}}]} as unknown as DocumentNode<CommentFieldsFragment, unknown>;
export const PageInfoFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageInfoFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<PageInfoFieldsFragment, unknown>;
export const InsightsRowFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"InsightsRowFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InsightsRow"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dateStart"}},{"kind":"Field","name":{"kind":"Name","value":"dateStop"}},{"kind":"Field","name":{"kind":"Name","value":"adId"}},{"kind":"Field","name":{"kind":"Name","value":"adName"}},{"kind":"Field","name":{"kind":"Name","value":"age"}},{"kind":"Field","name":{"kind":"Name","value":"gender"}},{"kind":"Field","name":{"kind":"Name","value":"impressions"}},{"kind":"Field","name":{"kind":"Name","value":"reach"}},{"kind":"Field","name":{"kind":"Name","value":"frequency"}},{"kind":"Field","name":{"kind":"Name","value":"clicks"}},{"kind":"Field","name":{"kind":"Name","value":"ctr"}},{"kind":"Field","name":{"kind":"Name","value":"spend"}},{"kind":"Field","name":{"kind":"Name","value":"cpc"}},{"kind":"Field","name":{"kind":"Name","value":"cpm"}},{"kind":"Field","name":{"kind":"Name","value":"actions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"actionType"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]} as unknown as DocumentNode<InsightsRowFieldsFragment, unknown>;
export const AdAccountsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AdAccounts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adAccounts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageInfoFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AdAccountSummary"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageInfoFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AdAccountSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AdAccount"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"actId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"timezoneName"}},{"kind":"Field","name":{"kind":"Name","value":"accountStatus"}}]}}]} as unknown as DocumentNode<AdAccountsQuery, AdAccountsQueryVariables>;
export const AdSetsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AdSets"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"effectiveStatus"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"EffectiveStatus"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adSets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}},{"kind":"Argument","name":{"kind":"Name","value":"effectiveStatus"},"value":{"kind":"Variable","name":{"kind":"Name","value":"effectiveStatus"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageInfoFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AdSetFields"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"GeoLocationsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"GeoLocations"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"countries"}},{"kind":"Field","name":{"kind":"Name","value":"countryGroups"}},{"kind":"Field","name":{"kind":"Name","value":"regions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"radius"}},{"kind":"Field","name":{"kind":"Name","value":"distanceUnit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"zips"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"locationTypes"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingEntityFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TargetingEntity"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DetailedTargetingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DetailedTargeting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"interests"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"behaviors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lifeEvents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"industries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"income"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"familyStatuses"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workPositions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"customAudiences"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"relationshipStatuses"}},{"kind":"Field","name":{"kind":"Name","value":"educationStatuses"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Targeting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"geoLocations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GeoLocationsFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"excludedGeoLocations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GeoLocationsFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"ageMin"}},{"kind":"Field","name":{"kind":"Name","value":"ageMax"}},{"kind":"Field","name":{"kind":"Name","value":"genders"}},{"kind":"Field","name":{"kind":"Name","value":"locales"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}},{"kind":"Field","name":{"kind":"Name","value":"excludedCustomAudiences"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"flexibleSpec"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"exclusions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"publisherPlatforms"}},{"kind":"Field","name":{"kind":"Name","value":"facebookPositions"}},{"kind":"Field","name":{"kind":"Name","value":"instagramPositions"}},{"kind":"Field","name":{"kind":"Name","value":"audienceNetworkPositions"}},{"kind":"Field","name":{"kind":"Name","value":"messengerPositions"}},{"kind":"Field","name":{"kind":"Name","value":"devicePlatforms"}},{"kind":"Field","name":{"kind":"Name","value":"userOs"}},{"kind":"Field","name":{"kind":"Name","value":"pageTypes"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageInfoFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AdSetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AdSet"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"effectiveStatus"}},{"kind":"Field","name":{"kind":"Name","value":"billingEvent"}},{"kind":"Field","name":{"kind":"Name","value":"optimizationGoal"}},{"kind":"Field","name":{"kind":"Name","value":"bidStrategy"}},{"kind":"Field","name":{"kind":"Name","value":"bidAmount"}},{"kind":"Field","name":{"kind":"Name","value":"dailyBudget"}},{"kind":"Field","name":{"kind":"Name","value":"lifetimeBudget"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"targeting"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sourceAdSetId"}},{"kind":"Field","name":{"kind":"Name","value":"campaign"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"issues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"errorCode"}},{"kind":"Field","name":{"kind":"Name","value":"errorSummary"}}]}},{"kind":"Field","name":{"kind":"Name","value":"updatedTime"}}]}}]} as unknown as DocumentNode<AdSetsQuery, AdSetsQueryVariables>;
export const CreateAdSetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateAdSet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateAdSetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createAdSet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AdSetFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"GeoLocationsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"GeoLocations"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"countries"}},{"kind":"Field","name":{"kind":"Name","value":"countryGroups"}},{"kind":"Field","name":{"kind":"Name","value":"regions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"radius"}},{"kind":"Field","name":{"kind":"Name","value":"distanceUnit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"zips"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"locationTypes"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingEntityFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TargetingEntity"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DetailedTargetingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DetailedTargeting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"interests"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"behaviors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lifeEvents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"industries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"income"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"familyStatuses"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workPositions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"customAudiences"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"relationshipStatuses"}},{"kind":"Field","name":{"kind":"Name","value":"educationStatuses"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Targeting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"geoLocations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GeoLocationsFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"excludedGeoLocations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GeoLocationsFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"ageMin"}},{"kind":"Field","name":{"kind":"Name","value":"ageMax"}},{"kind":"Field","name":{"kind":"Name","value":"genders"}},{"kind":"Field","name":{"kind":"Name","value":"locales"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}},{"kind":"Field","name":{"kind":"Name","value":"excludedCustomAudiences"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"flexibleSpec"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"exclusions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"publisherPlatforms"}},{"kind":"Field","name":{"kind":"Name","value":"facebookPositions"}},{"kind":"Field","name":{"kind":"Name","value":"instagramPositions"}},{"kind":"Field","name":{"kind":"Name","value":"audienceNetworkPositions"}},{"kind":"Field","name":{"kind":"Name","value":"messengerPositions"}},{"kind":"Field","name":{"kind":"Name","value":"devicePlatforms"}},{"kind":"Field","name":{"kind":"Name","value":"userOs"}},{"kind":"Field","name":{"kind":"Name","value":"pageTypes"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AdSetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AdSet"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"effectiveStatus"}},{"kind":"Field","name":{"kind":"Name","value":"billingEvent"}},{"kind":"Field","name":{"kind":"Name","value":"optimizationGoal"}},{"kind":"Field","name":{"kind":"Name","value":"bidStrategy"}},{"kind":"Field","name":{"kind":"Name","value":"bidAmount"}},{"kind":"Field","name":{"kind":"Name","value":"dailyBudget"}},{"kind":"Field","name":{"kind":"Name","value":"lifetimeBudget"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"targeting"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sourceAdSetId"}},{"kind":"Field","name":{"kind":"Name","value":"campaign"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"issues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"errorCode"}},{"kind":"Field","name":{"kind":"Name","value":"errorSummary"}}]}},{"kind":"Field","name":{"kind":"Name","value":"updatedTime"}}]}}]} as unknown as DocumentNode<CreateAdSetMutation, CreateAdSetMutationVariables>;
export const UpdateAdSetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateAdSet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateAdSetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateAdSet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AdSetFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"GeoLocationsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"GeoLocations"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"countries"}},{"kind":"Field","name":{"kind":"Name","value":"countryGroups"}},{"kind":"Field","name":{"kind":"Name","value":"regions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"radius"}},{"kind":"Field","name":{"kind":"Name","value":"distanceUnit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"zips"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"locationTypes"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingEntityFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TargetingEntity"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DetailedTargetingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DetailedTargeting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"interests"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"behaviors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lifeEvents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"industries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"income"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"familyStatuses"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workPositions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"customAudiences"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"relationshipStatuses"}},{"kind":"Field","name":{"kind":"Name","value":"educationStatuses"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Targeting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"geoLocations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GeoLocationsFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"excludedGeoLocations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GeoLocationsFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"ageMin"}},{"kind":"Field","name":{"kind":"Name","value":"ageMax"}},{"kind":"Field","name":{"kind":"Name","value":"genders"}},{"kind":"Field","name":{"kind":"Name","value":"locales"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}},{"kind":"Field","name":{"kind":"Name","value":"excludedCustomAudiences"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"flexibleSpec"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"exclusions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"publisherPlatforms"}},{"kind":"Field","name":{"kind":"Name","value":"facebookPositions"}},{"kind":"Field","name":{"kind":"Name","value":"instagramPositions"}},{"kind":"Field","name":{"kind":"Name","value":"audienceNetworkPositions"}},{"kind":"Field","name":{"kind":"Name","value":"messengerPositions"}},{"kind":"Field","name":{"kind":"Name","value":"devicePlatforms"}},{"kind":"Field","name":{"kind":"Name","value":"userOs"}},{"kind":"Field","name":{"kind":"Name","value":"pageTypes"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AdSetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AdSet"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"effectiveStatus"}},{"kind":"Field","name":{"kind":"Name","value":"billingEvent"}},{"kind":"Field","name":{"kind":"Name","value":"optimizationGoal"}},{"kind":"Field","name":{"kind":"Name","value":"bidStrategy"}},{"kind":"Field","name":{"kind":"Name","value":"bidAmount"}},{"kind":"Field","name":{"kind":"Name","value":"dailyBudget"}},{"kind":"Field","name":{"kind":"Name","value":"lifetimeBudget"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"targeting"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sourceAdSetId"}},{"kind":"Field","name":{"kind":"Name","value":"campaign"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"issues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"errorCode"}},{"kind":"Field","name":{"kind":"Name","value":"errorSummary"}}]}},{"kind":"Field","name":{"kind":"Name","value":"updatedTime"}}]}}]} as unknown as DocumentNode<UpdateAdSetMutation, UpdateAdSetMutationVariables>;
export const CopyAdSetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CopyAdSet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CopyAdSetInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"async"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"copyAdSet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"async"},"value":{"kind":"Variable","name":{"kind":"Name","value":"async"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"copiedAdSet"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AdSetFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"adObjectIds"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adObjectType"}},{"kind":"Field","name":{"kind":"Name","value":"sourceId"}},{"kind":"Field","name":{"kind":"Name","value":"copiedId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"request"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"GeoLocationsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"GeoLocations"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"countries"}},{"kind":"Field","name":{"kind":"Name","value":"countryGroups"}},{"kind":"Field","name":{"kind":"Name","value":"regions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"radius"}},{"kind":"Field","name":{"kind":"Name","value":"distanceUnit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"zips"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"locationTypes"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingEntityFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TargetingEntity"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DetailedTargetingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DetailedTargeting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"interests"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"behaviors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lifeEvents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"industries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"income"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"familyStatuses"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workPositions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"customAudiences"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"relationshipStatuses"}},{"kind":"Field","name":{"kind":"Name","value":"educationStatuses"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Targeting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"geoLocations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GeoLocationsFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"excludedGeoLocations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GeoLocationsFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"ageMin"}},{"kind":"Field","name":{"kind":"Name","value":"ageMax"}},{"kind":"Field","name":{"kind":"Name","value":"genders"}},{"kind":"Field","name":{"kind":"Name","value":"locales"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}},{"kind":"Field","name":{"kind":"Name","value":"excludedCustomAudiences"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"flexibleSpec"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"exclusions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"publisherPlatforms"}},{"kind":"Field","name":{"kind":"Name","value":"facebookPositions"}},{"kind":"Field","name":{"kind":"Name","value":"instagramPositions"}},{"kind":"Field","name":{"kind":"Name","value":"audienceNetworkPositions"}},{"kind":"Field","name":{"kind":"Name","value":"messengerPositions"}},{"kind":"Field","name":{"kind":"Name","value":"devicePlatforms"}},{"kind":"Field","name":{"kind":"Name","value":"userOs"}},{"kind":"Field","name":{"kind":"Name","value":"pageTypes"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AdSetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AdSet"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"effectiveStatus"}},{"kind":"Field","name":{"kind":"Name","value":"billingEvent"}},{"kind":"Field","name":{"kind":"Name","value":"optimizationGoal"}},{"kind":"Field","name":{"kind":"Name","value":"bidStrategy"}},{"kind":"Field","name":{"kind":"Name","value":"bidAmount"}},{"kind":"Field","name":{"kind":"Name","value":"dailyBudget"}},{"kind":"Field","name":{"kind":"Name","value":"lifetimeBudget"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"targeting"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sourceAdSetId"}},{"kind":"Field","name":{"kind":"Name","value":"campaign"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"issues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"errorCode"}},{"kind":"Field","name":{"kind":"Name","value":"errorSummary"}}]}},{"kind":"Field","name":{"kind":"Name","value":"updatedTime"}}]}}]} as unknown as DocumentNode<CopyAdSetMutation, CopyAdSetMutationVariables>;
export const AdSetFormDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AdSetForm"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adSet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"campaignId"}},{"kind":"Field","name":{"kind":"Name","value":"updatedTime"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AdSetFormFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"GeoLocationsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"GeoLocations"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"countries"}},{"kind":"Field","name":{"kind":"Name","value":"countryGroups"}},{"kind":"Field","name":{"kind":"Name","value":"regions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"radius"}},{"kind":"Field","name":{"kind":"Name","value":"distanceUnit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"zips"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"locationTypes"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingEntityFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TargetingEntity"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DetailedTargetingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DetailedTargeting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"interests"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"behaviors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lifeEvents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"industries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"income"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"familyStatuses"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workPositions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"customAudiences"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"relationshipStatuses"}},{"kind":"Field","name":{"kind":"Name","value":"educationStatuses"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TargetingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Targeting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"geoLocations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GeoLocationsFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"excludedGeoLocations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GeoLocationsFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"ageMin"}},{"kind":"Field","name":{"kind":"Name","value":"ageMax"}},{"kind":"Field","name":{"kind":"Name","value":"genders"}},{"kind":"Field","name":{"kind":"Name","value":"locales"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}},{"kind":"Field","name":{"kind":"Name","value":"excludedCustomAudiences"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingEntityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"flexibleSpec"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"exclusions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DetailedTargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"publisherPlatforms"}},{"kind":"Field","name":{"kind":"Name","value":"facebookPositions"}},{"kind":"Field","name":{"kind":"Name","value":"instagramPositions"}},{"kind":"Field","name":{"kind":"Name","value":"audienceNetworkPositions"}},{"kind":"Field","name":{"kind":"Name","value":"messengerPositions"}},{"kind":"Field","name":{"kind":"Name","value":"devicePlatforms"}},{"kind":"Field","name":{"kind":"Name","value":"userOs"}},{"kind":"Field","name":{"kind":"Name","value":"pageTypes"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AdSetFormFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AdSet"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"billingEvent"}},{"kind":"Field","name":{"kind":"Name","value":"optimizationGoal"}},{"kind":"Field","name":{"kind":"Name","value":"optimizationSubEvent"}},{"kind":"Field","name":{"kind":"Name","value":"destinationType"}},{"kind":"Field","name":{"kind":"Name","value":"targeting"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TargetingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"promotedObject"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pageId"}},{"kind":"Field","name":{"kind":"Name","value":"applicationId"}},{"kind":"Field","name":{"kind":"Name","value":"objectStoreUrl"}},{"kind":"Field","name":{"kind":"Name","value":"pixelId"}},{"kind":"Field","name":{"kind":"Name","value":"customConversionId"}},{"kind":"Field","name":{"kind":"Name","value":"customEventType"}},{"kind":"Field","name":{"kind":"Name","value":"objectStoryId"}},{"kind":"Field","name":{"kind":"Name","value":"productCatalogId"}},{"kind":"Field","name":{"kind":"Name","value":"productSetId"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"offerId"}},{"kind":"Field","name":{"kind":"Name","value":"instagramProfileId"}},{"kind":"Field","name":{"kind":"Name","value":"whatsappPhoneNumber"}},{"kind":"Field","name":{"kind":"Name","value":"offlineConversionDataSetId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"bidStrategy"}},{"kind":"Field","name":{"kind":"Name","value":"bidAmount"}},{"kind":"Field","name":{"kind":"Name","value":"bidConstraints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"roasAverageFloor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"bidAdjustments"}},{"kind":"Field","name":{"kind":"Name","value":"dailyBudget"}},{"kind":"Field","name":{"kind":"Name","value":"lifetimeBudget"}},{"kind":"Field","name":{"kind":"Name","value":"dailyMinSpendTarget"}},{"kind":"Field","name":{"kind":"Name","value":"dailySpendCap"}},{"kind":"Field","name":{"kind":"Name","value":"lifetimeMinSpendTarget"}},{"kind":"Field","name":{"kind":"Name","value":"lifetimeSpendCap"}},{"kind":"Field","name":{"kind":"Name","value":"dailyImps"}},{"kind":"Field","name":{"kind":"Name","value":"lifetimeImps"}},{"kind":"Field","name":{"kind":"Name","value":"minBudgetSpendPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"maxBudgetSpendPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"existingCustomerBudgetPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"dsaPayor"}},{"kind":"Field","name":{"kind":"Name","value":"dsaBeneficiary"}},{"kind":"Field","name":{"kind":"Name","value":"adlabels"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"adsetSchedule"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"startMinute"}},{"kind":"Field","name":{"kind":"Name","value":"endMinute"}},{"kind":"Field","name":{"kind":"Name","value":"days"}},{"kind":"Field","name":{"kind":"Name","value":"timezoneType"}}]}},{"kind":"Field","name":{"kind":"Name","value":"attributionSpec"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"windowDays"}}]}},{"kind":"Field","name":{"kind":"Name","value":"automaticManualState"}},{"kind":"Field","name":{"kind":"Name","value":"brandSafetyConfig"}},{"kind":"Field","name":{"kind":"Name","value":"budgetScheduleSpecs"}},{"kind":"Field","name":{"kind":"Name","value":"contextualBundlingSpec"}},{"kind":"Field","name":{"kind":"Name","value":"creativeSequence"}},{"kind":"Field","name":{"kind":"Name","value":"frequencyControlSpecs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"intervalDays"}},{"kind":"Field","name":{"kind":"Name","value":"maxFrequency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"isDynamicCreative"}},{"kind":"Field","name":{"kind":"Name","value":"multiOptimizationGoalWeight"}},{"kind":"Field","name":{"kind":"Name","value":"pacingType"}},{"kind":"Field","name":{"kind":"Name","value":"timeBasedAdRotationIdBlocks"}},{"kind":"Field","name":{"kind":"Name","value":"timeBasedAdRotationIntervals"}},{"kind":"Field","name":{"kind":"Name","value":"tuneForCategory"}},{"kind":"Field","name":{"kind":"Name","value":"useNewAppClick"}}]}}]} as unknown as DocumentNode<AdSetFormQuery, AdSetFormQueryVariables>;
export const PostCommentsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PostComments"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"postId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"post"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"postId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"comments"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageInfoFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CommentFields"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageInfoFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CommentFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Comment"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"attachment"}},{"kind":"Field","name":{"kind":"Name","value":"isHidden"}},{"kind":"Field","name":{"kind":"Name","value":"likeCount"}},{"kind":"Field","name":{"kind":"Name","value":"commentCount"}},{"kind":"Field","name":{"kind":"Name","value":"userLikes"}},{"kind":"Field","name":{"kind":"Name","value":"canRemove"}},{"kind":"Field","name":{"kind":"Name","value":"canHide"}},{"kind":"Field","name":{"kind":"Name","value":"messageTags"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"offset"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}},{"kind":"Field","name":{"kind":"Name","value":"from"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Person"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Page"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdTime"}},{"kind":"Field","name":{"kind":"Name","value":"updatedTime"}}]}}]} as unknown as DocumentNode<PostCommentsQuery, PostCommentsQueryVariables>;
export const PublishCommentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PublishComment"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"objectId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CommentContentInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publishComment"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"objectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"objectId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CommentFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CommentFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Comment"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"attachment"}},{"kind":"Field","name":{"kind":"Name","value":"isHidden"}},{"kind":"Field","name":{"kind":"Name","value":"likeCount"}},{"kind":"Field","name":{"kind":"Name","value":"commentCount"}},{"kind":"Field","name":{"kind":"Name","value":"userLikes"}},{"kind":"Field","name":{"kind":"Name","value":"canRemove"}},{"kind":"Field","name":{"kind":"Name","value":"canHide"}},{"kind":"Field","name":{"kind":"Name","value":"messageTags"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"offset"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}},{"kind":"Field","name":{"kind":"Name","value":"from"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Person"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Page"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdTime"}},{"kind":"Field","name":{"kind":"Name","value":"updatedTime"}}]}}]} as unknown as DocumentNode<PublishCommentMutation, PublishCommentMutationVariables>;
export const EditCommentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"EditComment"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CommentContentInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"editComment"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CommentFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CommentFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Comment"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"attachment"}},{"kind":"Field","name":{"kind":"Name","value":"isHidden"}},{"kind":"Field","name":{"kind":"Name","value":"likeCount"}},{"kind":"Field","name":{"kind":"Name","value":"commentCount"}},{"kind":"Field","name":{"kind":"Name","value":"userLikes"}},{"kind":"Field","name":{"kind":"Name","value":"canRemove"}},{"kind":"Field","name":{"kind":"Name","value":"canHide"}},{"kind":"Field","name":{"kind":"Name","value":"messageTags"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"offset"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}},{"kind":"Field","name":{"kind":"Name","value":"from"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Person"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Page"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdTime"}},{"kind":"Field","name":{"kind":"Name","value":"updatedTime"}}]}}]} as unknown as DocumentNode<EditCommentMutation, EditCommentMutationVariables>;
export const SetCommentHiddenDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetCommentHidden"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hidden"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setCommentHidden"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"hidden"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hidden"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CommentFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CommentFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Comment"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"attachment"}},{"kind":"Field","name":{"kind":"Name","value":"isHidden"}},{"kind":"Field","name":{"kind":"Name","value":"likeCount"}},{"kind":"Field","name":{"kind":"Name","value":"commentCount"}},{"kind":"Field","name":{"kind":"Name","value":"userLikes"}},{"kind":"Field","name":{"kind":"Name","value":"canRemove"}},{"kind":"Field","name":{"kind":"Name","value":"canHide"}},{"kind":"Field","name":{"kind":"Name","value":"messageTags"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"offset"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}},{"kind":"Field","name":{"kind":"Name","value":"from"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Person"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Page"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdTime"}},{"kind":"Field","name":{"kind":"Name","value":"updatedTime"}}]}}]} as unknown as DocumentNode<SetCommentHiddenMutation, SetCommentHiddenMutationVariables>;
export const ConvertDateFormatDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConvertDateFormat"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"format"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"lenient"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"convertDateFormat"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"format"},"value":{"kind":"Variable","name":{"kind":"Name","value":"format"}}},{"kind":"Argument","name":{"kind":"Name","value":"lenient"},"value":{"kind":"Variable","name":{"kind":"Name","value":"lenient"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"input"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"bestEffortOutput"}},{"kind":"Field","name":{"kind":"Name","value":"exact"}},{"kind":"Field","name":{"kind":"Name","value":"lenient"}},{"kind":"Field","name":{"kind":"Name","value":"usable"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"input"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"severity"}},{"kind":"Field","name":{"kind":"Name","value":"changes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"letter"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"why"}}]}},{"kind":"Field","name":{"kind":"Name","value":"findings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"severity"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}},{"kind":"Field","name":{"kind":"Name","value":"suggestions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"builtIn"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConvertDateFormatQuery, ConvertDateFormatQueryVariables>;
export const SignInDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SignIn"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LoginInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"login"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionToken"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<SignInMutation, SignInMutationVariables>;
export const SignOutDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SignOut"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"logout"}}]}}]} as unknown as DocumentNode<SignOutMutation, SignOutMutationVariables>;
export const RequestOneTimePasscodeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RequestOneTimePasscode"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"email"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"requestOneTimePasscode"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"email"},"value":{"kind":"Variable","name":{"kind":"Name","value":"email"}}}]}]}}]} as unknown as DocumentNode<RequestOneTimePasscodeMutation, RequestOneTimePasscodeMutationVariables>;
export const ChangePasswordWithOneTimePasscodeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ChangePasswordWithOneTimePasscode"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ChangePasswordWithOneTimePasscodeInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"changePasswordWithOneTimePasscode"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}]}]}}]} as unknown as DocumentNode<ChangePasswordWithOneTimePasscodeMutation, ChangePasswordWithOneTimePasscodeMutationVariables>;
export const ViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"memberships"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ViewerQuery, ViewerQueryVariables>;
export const AdSetInsightsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AdSetInsights"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"adSetId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"InsightsInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adSet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"adSetId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"insights"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageInfoFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"InsightsRowFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"summary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"impressions"}},{"kind":"Field","name":{"kind":"Name","value":"reach"}},{"kind":"Field","name":{"kind":"Name","value":"spend"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageInfoFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"InsightsRowFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InsightsRow"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dateStart"}},{"kind":"Field","name":{"kind":"Name","value":"dateStop"}},{"kind":"Field","name":{"kind":"Name","value":"adId"}},{"kind":"Field","name":{"kind":"Name","value":"adName"}},{"kind":"Field","name":{"kind":"Name","value":"age"}},{"kind":"Field","name":{"kind":"Name","value":"gender"}},{"kind":"Field","name":{"kind":"Name","value":"impressions"}},{"kind":"Field","name":{"kind":"Name","value":"reach"}},{"kind":"Field","name":{"kind":"Name","value":"frequency"}},{"kind":"Field","name":{"kind":"Name","value":"clicks"}},{"kind":"Field","name":{"kind":"Name","value":"ctr"}},{"kind":"Field","name":{"kind":"Name","value":"spend"}},{"kind":"Field","name":{"kind":"Name","value":"cpc"}},{"kind":"Field","name":{"kind":"Name","value":"cpm"}},{"kind":"Field","name":{"kind":"Name","value":"actions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"actionType"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]} as unknown as DocumentNode<AdSetInsightsQuery, AdSetInsightsQueryVariables>;