import { MINOR_UNIT_DIGITS, type CurrencyCode } from '../../ads/rules/currencies.ts';
import type { ActionStat, InsightsRow } from '../query.ts';

/**
 * The numbers a report derives from its rows' integers, printed as the platform prints them: strings, money in
 * the account currency's major units, ratios to 6 decimals. Everything is computed from the integers with exact
 * arithmetic (BigInt), so sums of minor units never drift through floating point and both surfaces agree to the
 * cent.
 *
 * Rules (the README's decisions):
 * - money: every digit of the currency's minor unit ("12.30" USD, "1230" JPY);
 * - ratios (ctr, cpc, cpm, cpp, frequency, unique_ctr, cost_per_*): rounded half up to 6 decimals, trailing zeros
 *   dropped ("1.176471", "4.17094", "2");
 * - a ratio whose denominator is 0 (no clicks: no cpc) has no value, and the row leaves it out.
 */
export const RATIO_DECIMALS = 6;
const RATIO_SCALE = 10n ** BigInt(RATIO_DECIMALS);

export const digitsOf = (currency: string) => MINOR_UNIT_DIGITS[currency as CurrencyCode] ?? 2;

/** Minor units in major units as the platform prints money: "12.30", "-0.05", "1230" (JPY). */
export function printMoney(minor: number | bigint, currency: string): string {
  const digits = digitsOf(currency);
  const amount = BigInt(minor);
  if (digits === 0) return amount.toString();
  const negative = amount < 0n;
  const magnitude = negative ? -amount : amount;
  const scale = 10n ** BigInt(digits);
  return `${negative ? '-' : ''}${magnitude / scale}.${(magnitude % scale).toString().padStart(digits, '0')}`;
}

/** numerator / denominator rounded half up to 6 decimals, trailing zeros dropped; undefined when denominator is 0. */
export function printRatio(numerator: bigint, denominator: bigint): string | undefined {
  if (denominator === 0n) return undefined;
  const negative = numerator < 0n !== denominator < 0n && numerator !== 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const scaled = (n * RATIO_SCALE * 2n + d) / (2n * d);
  const whole = scaled / RATIO_SCALE;
  const fraction = (scaled % RATIO_SCALE).toString().padStart(RATIO_DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** A derived value: as a number (for sorting and filtering) and as printed. */
export interface Metric {
  value: number;
  printed: string;
}

const ratio = (numerator: bigint, denominator: bigint): Metric | undefined => {
  const printed = printRatio(numerator, denominator);
  return printed === undefined ? undefined : { value: Number(printed), printed };
};
const count = (n: number | null): Metric | undefined => (n === null ? undefined : { value: n, printed: String(n) });
/** An unknown number of people (null) makes every ratio over or of it unknown, left out like a ratio over 0. */
const big = (n: number | null): bigint => (n === null ? 0n : BigInt(n));

/** Money per unit: minor units over (count × 10^digits), times `per` (1,000 for cpm and cpp). */
const costPer = (spend: number, units: number | null, currency: string, per = 1n) => ratio(big(spend) * per, big(units) * 10n ** big(digitsOf(currency)));

/**
 * Every numeric field of a report row by its platform name: counts, money and ratios. Sort and numeric filtering
 * accept exactly these names; the surfaces print from here.
 */
export const NUMERIC_METRICS = {
  impressions: (row) => count(row.impressions),
  reach: (row) => count(row.reach),
  clicks: (row) => count(row.clicks),
  unique_clicks: (row) => count(row.uniqueClicks),
  inline_link_clicks: (row) => count(row.inlineLinkClicks),
  spend: (row) => ({ value: row.spend / 10 ** digitsOf(row.accountCurrency), printed: printMoney(row.spend, row.accountCurrency) }),
  frequency: (row) => ratio(big(row.impressions), big(row.reach)),
  ctr: (row) => ratio(big(row.clicks) * 100n, big(row.impressions)),
  unique_ctr: (row) => (row.uniqueClicks === null ? undefined : ratio(big(row.uniqueClicks) * 100n, big(row.reach))),
  inline_link_click_ctr: (row) => ratio(big(row.inlineLinkClicks) * 100n, big(row.impressions)),
  cpc: (row) => costPer(row.spend, row.clicks, row.accountCurrency),
  cost_per_unique_click: (row) => costPer(row.spend, row.uniqueClicks, row.accountCurrency),
  cost_per_inline_link_click: (row) => costPer(row.spend, row.inlineLinkClicks, row.accountCurrency),
  cpm: (row) => costPer(row.spend, row.impressions, row.accountCurrency, 1000n),
  cpp: (row) => costPer(row.spend, row.reach, row.accountCurrency, 1000n),
} satisfies Record<string, (row: InsightsRow) => Metric | undefined>;
export type NumericMetric = keyof typeof NUMERIC_METRICS;

export const isNumericMetric = (field: string): field is NumericMetric => Object.hasOwn(NUMERIC_METRICS, field);

/** The metric's value of a row, undefined when it has none (a ratio over 0). */
export const metricOf = (row: InsightsRow, field: NumericMetric): Metric | undefined => NUMERIC_METRICS[field](row);

/** Fields that need the reach sketches merged (everything else sums). */
export const REACH_FIELDS: ReadonlySet<string> = new Set(['reach', 'frequency', 'cpp', 'unique_ctr']);
export const UNIQUE_CLICK_FIELDS: ReadonlySet<string> = new Set(['unique_clicks', 'unique_ctr', 'cost_per_unique_click']);

/**
 * Conversions are the actions of these types (the standard events a pixel or app reports), a subset of `actions`;
 * other types (link_click, video_view, post_engagement, ...) are engagement, not conversions.
 */
export const CONVERSION_ACTION_TYPES: ReadonlySet<string> = new Set([
  'purchase',
  'lead',
  'complete_registration',
  'add_to_cart',
  'add_payment_info',
  'add_to_wishlist',
  'initiate_checkout',
  'subscribe',
  'start_trial',
  'contact',
  'submit_application',
  'schedule',
  'search',
  'donate',
]);

/** A conversion: a standard conversion event, or a pixel's custom one (offsite_conversion.*). */
export const isConversion = (actionType: string) => CONVERSION_ACTION_TYPES.has(actionType) || actionType.startsWith('offsite_conversion.');

export const conversionsOf = (actions: readonly ActionStat[]) => actions.filter((action) => isConversion(action.actionType));

export interface PrintedActionStat {
  action_type: string;
  value: string;
}

/** actions / conversions: counts printed. */
export const printCounts = (actions: readonly ActionStat[]): PrintedActionStat[] => actions.map((a) => ({ action_type: a.actionType, value: String(a.value) }));

/** action_values: money printed. */
export const printValues = (values: readonly ActionStat[], currency: string): PrintedActionStat[] =>
  values.map((a) => ({ action_type: a.actionType, value: printMoney(a.value, currency) }));

/** cost_per_action_type: spend over each action's count (types with a count of 0 left out). */
export const costPerActionType = (row: Pick<InsightsRow, 'spend' | 'actions' | 'accountCurrency'>): PrintedActionStat[] =>
  row.actions.flatMap((action) => {
    const cost = costPer(row.spend, action.value, row.accountCurrency);
    return cost ? [{ action_type: action.actionType, value: cost.printed }] : [];
  });
