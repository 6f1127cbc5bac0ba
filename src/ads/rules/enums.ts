/**
 * The enumerations of the advertising specification (`../shared/spec/001_*.txt`) and of Graph API v24.0 where
 * the specification lists none. One list each, read by the parameter checks, the rules and the GraphQL enums.
 */
export const OBJECT_STATUSES = ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED'] as const;
export type ObjectStatus = (typeof OBJECT_STATUSES)[number];
/** "Only ACTIVE and PAUSED are valid during creation. Other statuses can be used for update." (Graph API) */
export const CREATE_STATUSES = ['ACTIVE', 'PAUSED'] as const satisfies readonly ObjectStatus[];

export const OBJECTIVES = ['OUTCOME_APP_PROMOTION', 'OUTCOME_AWARENESS', 'OUTCOME_ENGAGEMENT', 'OUTCOME_LEADS', 'OUTCOME_SALES', 'OUTCOME_TRAFFIC'] as const;
export type Objective = (typeof OBJECTIVES)[number];

export const SPECIAL_AD_CATEGORIES = [
  'NONE',
  'EMPLOYMENT',
  'HOUSING',
  'CREDIT',
  'ISSUES_ELECTIONS_POLITICS',
  'ONLINE_GAMBLING_AND_GAMING',
  'FINANCIAL_PRODUCTS_SERVICES',
] as const;

export const BID_STRATEGIES = ['LOWEST_COST_WITHOUT_CAP', 'LOWEST_COST_WITH_BID_CAP', 'COST_CAP', 'LOWEST_COST_WITH_MIN_ROAS'] as const;
export type BidStrategy = (typeof BID_STRATEGIES)[number];

export const BILLING_EVENTS = [
  'APP_INSTALLS',
  'CLICKS',
  'IMPRESSIONS',
  'LINK_CLICKS',
  'NONE',
  'OFFER_CLAIMS',
  'PAGE_LIKES',
  'POST_ENGAGEMENT',
  'THRUPLAY',
  'PURCHASE',
  'LISTING_INTERACTION',
] as const;
export type BillingEvent = (typeof BILLING_EVENTS)[number];

export const OPTIMIZATION_GOALS = [
  'NONE',
  'APP_INSTALLS',
  'AD_RECALL_LIFT',
  'ENGAGED_USERS',
  'EVENT_RESPONSES',
  'IMPRESSIONS',
  'LEAD_GENERATION',
  'QUALITY_LEAD',
  'LINK_CLICKS',
  'OFFSITE_CONVERSIONS',
  'PAGE_LIKES',
  'POST_ENGAGEMENT',
  'QUALITY_CALL',
  'REACH',
  'LANDING_PAGE_VIEWS',
  'VISIT_INSTAGRAM_PROFILE',
  'VALUE',
  'THRUPLAY',
  'DERIVED_EVENTS',
  'APP_INSTALLS_AND_OFFSITE_CONVERSIONS',
  'CONVERSATIONS',
  'IN_APP_VALUE',
  'MESSAGING_PURCHASE_CONVERSION',
  'SUBSCRIBERS',
  'REMINDERS_SET',
  'MEANINGFUL_CALL_ATTEMPT',
  'PROFILE_VISIT',
  'PROFILE_AND_PAGE_ENGAGEMENT',
  'ADVERTISER_SILOED_VALUE',
  'AUTOMATIC_OBJECTIVE',
  'MESSAGING_APPOINTMENT_CONVERSION',
] as const;
export type OptimizationGoal = (typeof OPTIMIZATION_GOALS)[number];

export const DESTINATION_TYPES = [
  'WEBSITE',
  'APP',
  'MESSENGER',
  'APPLINKS_AUTOMATIC',
  'WHATSAPP',
  'INSTAGRAM_DIRECT',
  'FACEBOOK',
  'MESSAGING_MESSENGER_WHATSAPP',
  'MESSAGING_INSTAGRAM_DIRECT_MESSENGER',
  'MESSAGING_INSTAGRAM_DIRECT_MESSENGER_WHATSAPP',
  'MESSAGING_INSTAGRAM_DIRECT_WHATSAPP',
  'SHOP_AUTOMATIC',
  'ON_AD',
  'ON_POST',
  'ON_EVENT',
  'ON_VIDEO',
  'ON_PAGE',
  'INSTAGRAM_PROFILE',
  'FACEBOOK_PAGE',
  'INSTAGRAM_PROFILE_AND_FACEBOOK_PAGE',
  'INSTAGRAM_LIVE',
  'FACEBOOK_LIVE',
  'IMAGINE',
] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

export const OPTIMIZATION_SUB_EVENTS = [
  'NONE',
  'VIDEO_SOUND_ON',
  'TRIP_CONSIDERATION',
  'TRAVEL_INTENT',
  'TRAVEL_INTENT_NO_DESTINATION_INTENT',
  'TRAVEL_INTENT_BUCKET_01',
  'TRAVEL_INTENT_BUCKET_02',
  'TRAVEL_INTENT_BUCKET_03',
  'TRAVEL_INTENT_BUCKET_04',
  'TRAVEL_INTENT_BUCKET_05',
  'POST_INTERACTION',
] as const;
export const AUTOMATIC_MANUAL_STATES = ['UNSET', 'AUTOMATIC', 'MANUAL'] as const;
export const BUDGET_SOURCES = ['NONE', 'RMN'] as const;
export const MULTI_OPTIMIZATION_GOAL_WEIGHTS = ['UNDEFINED', 'BALANCED', 'PREFER_INSTALL', 'PREFER_EVENT'] as const;
export const TUNE_FOR_CATEGORIES = [
  'NONE',
  'EMPLOYMENT',
  'HOUSING',
  'CREDIT',
  'ISSUES_ELECTIONS_POLITICS',
  'ONLINE_GAMBLING_AND_GAMING',
  'FINANCIAL_PRODUCTS_SERVICES',
] as const;
/** Graph API's pacing types: standard (the default), ad scheduling (day_parting), and no pacing. */
export const PACING_TYPES = ['standard', 'day_parting', 'no_pacing'] as const;
export const EXECUTION_OPTIONS = ['validate_only', 'include_recommendations'] as const;
export type ExecutionOption = (typeof EXECUTION_OPTIONS)[number];

export const AUDIENCE_SUBTYPES = [
  'CUSTOM',
  'PRIMARY',
  'WEBSITE',
  'APP',
  'OFFLINE_CONVERSION',
  'CLAIM',
  'MANAGED',
  'PARTNER',
  'VIDEO',
  'LOOKALIKE',
  'ENGAGEMENT',
  'BAG_OF_ACCOUNTS',
  'STUDY_RULE_AUDIENCE',
  'FOX',
  'MEASUREMENT',
  'REGULATED_CATEGORIES_AUDIENCE',
  'BIDDING',
  'EXCLUSION',
  'MESSENGER_SUBSCRIBER_LIST',
] as const;
export const LOOKALIKE_TYPES = ['similarity', 'reach', 'custom_ratio'] as const;
export const CUSTOM_EVENT_TYPES = [
  'ADD_PAYMENT_INFO',
  'ADD_TO_CART',
  'ADD_TO_WISHLIST',
  'COMPLETE_REGISTRATION',
  'CONTENT_VIEW',
  'INITIATED_CHECKOUT',
  'LEAD',
  'PURCHASE',
  'SEARCH',
  'CONTACT',
  'CUSTOMIZE_PRODUCT',
  'DONATE',
  'FIND_LOCATION',
  'SCHEDULE',
  'START_TRIAL',
  'SUBMIT_APPLICATION',
  'SUBSCRIBE',
  'LISTING_INTERACTION',
  'FACEBOOK_SELECTED',
  'OTHER',
] as const;

/** Copy parameters. */
export const STATUS_OPTIONS = ['ACTIVE', 'PAUSED', 'INHERITED_FROM_SOURCE'] as const;
export type StatusOption = (typeof STATUS_OPTIONS)[number];
export const RENAME_STRATEGIES = ['DEEP_RENAME', 'ONLY_TOP_LEVEL_RENAME', 'NO_RENAME'] as const;
export type RenameStrategy = (typeof RENAME_STRATEGIES)[number];

/** The ISO 3166-1 alpha-2 codes assigned today (targeting and business countries). */
export const COUNTRY_CODES = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG ' +
    'CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM ' +
    'GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC ' +
    'LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ ' +
    'OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC ' +
    'TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

/** Why the platform's review flagged a custom audience or conversion (operator CLI, DECISIONS section 7). */
export const FLAG_REASONS = ['health', 'financial'] as const;
export type FlagReason = (typeof FLAG_REASONS)[number];
