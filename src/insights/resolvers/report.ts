import type { GraphQLResolveInfo } from 'graphql';
import { connectionItemFields, fieldsByName } from '../../graphql/selection.ts';
import type { RequestContext } from '../../context/index.ts';
import type { InsightsInput } from '../../graphql/__generated__/resolvers-types.ts';
import { badInput, DomainError } from '../../errors/index.ts';
import type { RelayArgs } from '../../db/pagination.ts';
import { readInsightsParams, type InsightsCall } from '../../graph-api/insights.ts';
import { DEFAULT_INSIGHTS_PAGE, insightsReport, MAX_INSIGHTS_PAGE } from '../service.ts';
import type { InsightsPageRequest, InsightsTarget } from '../query.ts';
import { MAX_INCREMENT_DAYS } from '../rules/windows.ts';
import type { InsightsConnectionModel } from './connection.ts';

/** InsightsRow's fields by their /v24.0 names (the fields a report computes); ids, names and breakdowns come with every row. */
const PLATFORM_FIELDS: Record<string, string> = {
  accountId: 'account_id',
  accountName: 'account_name',
  accountCurrency: 'account_currency',
  campaignId: 'campaign_id',
  campaignName: 'campaign_name',
  adSetId: 'adset_id',
  adSetName: 'adset_name',
  adId: 'ad_id',
  adName: 'ad_name',
  objective: 'objective',
  optimizationGoal: 'optimization_goal',
  impressions: 'impressions',
  reach: 'reach',
  frequency: 'frequency',
  clicks: 'clicks',
  uniqueClicks: 'unique_clicks',
  inlineLinkClicks: 'inline_link_clicks',
  ctr: 'ctr',
  uniqueCtr: 'unique_ctr',
  spend: 'spend',
  cpc: 'cpc',
  cpm: 'cpm',
  cpp: 'cpp',
  actions: 'actions',
  actionValues: 'action_values',
  costPerActionType: 'cost_per_action_type',
  conversions: 'conversions',
};

/** What the operation reads of the connection: the rows' fields (nodes, edges.node) and whether it reads the summary. */
function selection(info: GraphQLResolveInfo): { fields: string[]; summary: boolean } {
  const summary = fieldsByName(info.fieldNodes, info.fragments).get('summary');
  const names = [...connectionItemFields(info.fieldNodes, info.fragments).keys(), ...(summary ? fieldsByName(summary, info.fragments).keys() : [])];
  const fields = [...new Set(names.map((name) => PLATFORM_FIELDS[name]).filter((name): name is string => name !== undefined))];
  return { fields, summary: summary !== undefined };
}

function pageOf(args: RelayArgs): InsightsPageRequest {
  const size = (value: number, field: string) => {
    if (!Number.isInteger(value) || value < 1 || value > MAX_INSIGHTS_PAGE) throw badInput(field, `${field} must be between 1 and ${MAX_INSIGHTS_PAGE}.`);
    return value;
  };
  const backward = args.last != null || args.before != null;
  if (backward && (args.first != null || args.after != null)) throw badInput('last', 'Use first/after or last/before, not both.');
  if (backward) return { limit: args.last != null ? size(args.last, 'last') : DEFAULT_INSIGHTS_PAGE, before: args.before ?? undefined };
  return { limit: args.first != null ? size(args.first, 'first') : DEFAULT_INSIGHTS_PAGE, after: args.after ?? undefined };
}

/**
 * An InsightsInput as the /v24.0 parameters it stands for, read by the same reader (graph-api/insights.ts), with
 * these fields (none: the default fields). Asynchronous reports (createInsightsReport) read their input here too.
 */
export function insightsCallOfInput(input: InsightsInput, fields: readonly string[]): InsightsCall {
  if (input.timeIncrement != null && input.timeIncrementDays != null) {
    throw badInput('time_increment_days', 'Use timeIncrement or timeIncrementDays, not both.');
  }
  return readInsightsParams({
    fields: fields.length > 0 ? fields : undefined,
    level: input.level,
    date_preset: input.datePreset,
    time_range: input.timeRange,
    time_ranges: input.timeRanges,
    time_increment: input.timeIncrementDays ?? input.timeIncrement,
    breakdowns: input.breakdowns,
    action_breakdowns: input.actionBreakdowns,
    filtering: input.filtering,
    sort: input.sort?.map((sort) => `${sort.field}_${sort.direction}`),
  });
}

/**
 * The rules name time_increment and allow monthly and all_days besides days; a caller who sent a number of days
 * sent it as timeIncrementDays, which takes days only: errors say so (graphql/errors.ts words the name).
 */
export async function namingInputFields<T>(input: InsightsInput, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (input.timeIncrementDays != null && error instanceof DomainError && error.field === 'time_increment') {
      const message = `Param time_increment_days must be a number of days from 1 to ${MAX_INCREMENT_DAYS}, got ${input.timeIncrementDays}.`;
      throw badInput('time_increment_days', message, { graph: error.graph });
    }
    throw error;
  }
}

/**
 * `insights(input, first, after, last, before)` of an account, campaign, ad set or ad: the input becomes the
 * /v24.0 parameters and goes through the same reader (graph-api/insights.ts) to the same service, so both
 * surfaces refuse and answer alike; errors name the input's fields (graphql/errors.ts translates).
 */
export async function insightsConnection(
  ctx: RequestContext,
  target: InsightsTarget,
  args: { input: InsightsInput } & RelayArgs,
  info: GraphQLResolveInfo,
): Promise<InsightsConnectionModel> {
  const { input } = args;
  const wanted = selection(info);
  // With no field of a row asked for (only pageInfo), the default fields.
  return namingInputFields(input, async () => {
    const call = insightsCallOfInput(input, wanted.fields);
    return { page: await insightsReport(ctx, target, call.query, pageOf(args), { summary: wanted.summary }) };
  });
}
