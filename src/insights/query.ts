/**
 * The vocabulary of statistics (Insights), shared by the domain service and both surfaces: what a report asks
 * (InsightsQuery, already read from the surface's own syntax) and what it answers (InsightsRow, raw integers;
 * derived ratios and money printing come from rules/metrics.ts so GraphQL and /v24.0 agree to the cent).
 */

export const INSIGHTS_LEVELS = ['account', 'campaign', 'adset', 'ad'] as const;
export type InsightsLevel = (typeof INSIGHTS_LEVELS)[number];

/** The objects whose statistics can be read (their own level is the default level of a report on them). */
export type InsightsTargetKind = InsightsLevel;
export interface InsightsTarget {
  kind: InsightsTargetKind;
  id: string;
}

export const DATE_PRESETS = [
  'today',
  'yesterday',
  'this_month',
  'last_month',
  'this_quarter',
  'maximum',
  'data_maximum',
  'last_3d',
  'last_7d',
  'last_14d',
  'last_28d',
  'last_30d',
  'last_90d',
  'last_week_mon_sun',
  'last_week_sun_sat',
  'last_quarter',
  'last_year',
  'this_week_mon_today',
  'this_week_sun_today',
  'this_year',
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export const BREAKDOWNS = ['age', 'gender', 'country', 'publisher_platform', 'platform_position', 'device_platform'] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];

export const ACTION_BREAKDOWNS = ['action_type'] as const;
export type ActionBreakdown = (typeof ACTION_BREAKDOWNS)[number];

/** A day of the account's calendar, YYYY-MM-DD. */
export type Day = string;
export interface DayRange {
  since: Day;
  until: Day;
}

export type TimeIncrement = number | 'monthly' | 'all_days';

export interface InsightsFilter {
  /** The platform's filter field: campaign.id, adset.id, ad.id, ad.effective_status, adset.effective_status, ... */
  field: string;
  /** EQUAL, NOT_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL, LESS_THAN, LESS_THAN_OR_EQUAL, IN, NOT_IN, CONTAIN, NOT_CONTAIN */
  operator: string;
  value: unknown;
}

export interface InsightsSort {
  /** A numeric field of the report (spend, impressions, reach, clicks, ctr, cpc, ...). */
  field: string;
  direction: 'ascending' | 'descending';
}

export interface InsightsQuery {
  /** The platform's field names asked for (snake_case; GraphQL maps its selection onto them). */
  fields: string[];
  /** Default: the target's own level. */
  level?: InsightsLevel;
  /** At most one of datePreset, timeRange, timeRanges; none means last_30d, as on the platform. */
  datePreset?: DatePreset;
  timeRange?: DayRange;
  timeRanges?: DayRange[];
  /** Default all_days. */
  timeIncrement?: TimeIncrement;
  breakdowns: Breakdown[];
  actionBreakdowns: ActionBreakdown[];
  filtering: InsightsFilter[];
  sort: InsightsSort[];
}

export interface ActionStat {
  actionType: string;
  /** A count, or money in minor units for action_values. */
  value: number;
}

/** One row of a report: the raw integers it sums, the labels of its level, and its breakdown values. */
export interface InsightsRow {
  dateStart: Day;
  dateStop: Day;
  accountId: string;
  accountName: string;
  accountCurrency: string;
  campaignId?: string;
  campaignName?: string;
  adsetId?: string;
  adsetName?: string;
  adId?: string;
  adName?: string;
  objective?: string;
  optimizationGoal?: string;
  breakdownValues: Partial<Record<Breakdown, string>>;
  impressions: number;
  /** Distinct people reached (merged sketches), not a sum; null when some of the facts carried no sketch. */
  reach: number | null;
  clicks: number;
  /** Distinct people who clicked; null when unknown, as reach. */
  uniqueClicks: number | null;
  inlineLinkClicks: number;
  /** Minor units of accountCurrency. */
  spend: number;
  actions: ActionStat[];
  actionValues: ActionStat[];
}

export interface InsightsPageRequest {
  limit: number;
  after?: string;
  before?: string;
}

export interface InsightsPage {
  rows: InsightsRow[];
  /** Totals over the whole result (every page), when the caller asked for a summary. */
  summary?: InsightsRow;
  /** Opaque cursors of the first and last row of this page. */
  before?: string;
  after?: string;
  /** The cursor of each row (rows[i] at cursors[i]): GraphQL's edges page from any row. */
  cursors: string[];
  hasNext: boolean;
  hasPrevious: boolean;
}
