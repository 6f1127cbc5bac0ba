import type { InsightsRowResolvers } from '../../graphql/__generated__/resolvers-types.ts';
import type { ActionStat as ActionStatModel, InsightsRow } from '../query.ts';
import { conversionsOf, costPerActionType, metricOf, printMoney, type NumericMetric } from '../rules/metrics.ts';

const printed = (row: InsightsRow, field: NumericMetric) => metricOf(row, field)?.printed ?? null;
/** Ratios as numbers parsed from the printed text: the same 6 decimals /v24.0 prints. */
const ratio = (row: InsightsRow, field: NumericMetric) => {
  const text = metricOf(row, field)?.printed;
  return text === undefined ? null : Number(text);
};
const counts = (stats: readonly ActionStatModel[]) => stats.map((stat) => ({ actionType: stat.actionType, value: String(stat.value) }));

/**
 * InsightsRow: the engine's row (raw integers, query.ts), every derived number from rules/metrics.ts, the one
 * place /v24.0 prints from too. Breakdown values resolve through the enum maps (index.ts).
 */
export const insightsRowResolvers: InsightsRowResolvers = {
  adSetId: (row) => row.adsetId ?? null,
  adSetName: (row) => row.adsetName ?? null,
  age: (row) => (row.breakdownValues.age as never) ?? null,
  gender: (row) => (row.breakdownValues.gender as never) ?? null,
  country: (row) => row.breakdownValues.country ?? null,
  publisherPlatform: (row) => (row.breakdownValues.publisher_platform as never) ?? null,
  platformPosition: (row) => (row.breakdownValues.platform_position as never) ?? null,
  devicePlatform: (row) => (row.breakdownValues.device_platform as never) ?? null,
  impressions: (row) => String(row.impressions),
  reach: (row) => (row.reach === null ? null : String(row.reach)),
  clicks: (row) => String(row.clicks),
  uniqueClicks: (row) => (row.uniqueClicks === null ? null : String(row.uniqueClicks)),
  inlineLinkClicks: (row) => String(row.inlineLinkClicks),
  frequency: (row) => ratio(row, 'frequency'),
  ctr: (row) => ratio(row, 'ctr'),
  uniqueCtr: (row) => ratio(row, 'unique_ctr'),
  spend: (row) => printMoney(row.spend, row.accountCurrency),
  cpc: (row) => printed(row, 'cpc'),
  cpm: (row) => printed(row, 'cpm'),
  cpp: (row) => printed(row, 'cpp'),
  actions: (row) => counts(row.actions),
  conversions: (row) => counts(conversionsOf(row.actions)),
  actionValues: (row) => row.actionValues.map((stat) => ({ actionType: stat.actionType, value: printMoney(stat.value, row.accountCurrency) })),
  costPerActionType: (row) => costPerActionType(row).map((stat) => ({ actionType: stat.action_type, value: stat.value })),
};
