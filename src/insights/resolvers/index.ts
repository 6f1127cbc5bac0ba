import type { Resolvers } from '../../graphql/__generated__/resolvers-types.ts';
import { lowercaseEnum } from '../../graphql/helpers.ts';
import { ACTION_BREAKDOWNS, BREAKDOWNS, DATE_PRESETS, INSIGHTS_LEVELS } from '../query.ts';
import { AGE_BRACKETS, DEVICE_PLATFORMS, GENDERS, PLATFORM_POSITIONS, PUBLISHER_PLATFORMS } from '../rules/breakdowns.ts';
import { MoneyScalar } from './money.ts';
import { insightsRowResolvers } from './row.ts';
import { insightsConnectionResolvers } from './connection.ts';
import { insightsConnection } from './report.ts';

/** An age bracket's GraphQL name (a name cannot start with a digit or hold - or +): 25-34 → AGE_25_34, 65+ → AGE_65_PLUS. */
export const ageEnumName = (age: string) => `AGE_${age.replace('-', '_').replace('+', '_PLUS')}`;
const ageEnum = Object.fromEntries(AGE_BRACKETS.map((age) => [ageEnumName(age), age]));

/** Statistics in GraphQL: `insights` on the four objects that have them, the row and connection types, Money. */
export const insightsResolvers: Resolvers = {
  Money: MoneyScalar,
  InsightsLevel: lowercaseEnum(INSIGHTS_LEVELS),
  InsightsDatePreset: lowercaseEnum(DATE_PRESETS),
  InsightsTimeIncrement: lowercaseEnum(['all_days', 'monthly'] as const),
  InsightsBreakdown: lowercaseEnum(BREAKDOWNS),
  InsightsActionBreakdown: lowercaseEnum(ACTION_BREAKDOWNS),
  InsightsSortDirection: lowercaseEnum(['ascending', 'descending'] as const),
  InsightsAge: ageEnum as never,
  InsightsGender: lowercaseEnum(GENDERS),
  InsightsPublisherPlatform: lowercaseEnum(PUBLISHER_PLATFORMS),
  InsightsPlatformPosition: lowercaseEnum(PLATFORM_POSITIONS),
  InsightsDevicePlatform: lowercaseEnum(DEVICE_PLATFORMS),
  InsightsRow: insightsRowResolvers,
  InsightsConnection: insightsConnectionResolvers,
  AdAccount: { insights: (account, args, ctx, info) => insightsConnection(ctx, { kind: 'account', id: account.id }, args, info) },
  Campaign: { insights: (campaign, args, ctx, info) => insightsConnection(ctx, { kind: 'campaign', id: campaign.id }, args, info) },
  AdSet: { insights: (adSet, args, ctx, info) => insightsConnection(ctx, { kind: 'adset', id: adSet.id }, args, info) },
  Ad: { insights: (ad, args, ctx, info) => insightsConnection(ctx, { kind: 'ad', id: ad.id }, args, info) },
};
