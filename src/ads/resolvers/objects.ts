import type { AdResolvers, CampaignResolvers, CustomAudienceResolvers, CustomConversionResolvers } from '../../graphql/__generated__/resolvers-types.ts';
import { edgeConnection, statusFilter } from '../../graphql/edges.ts';
import { connectionPlan } from '../../graphql/projection.ts';
import { adReads, adSetReads } from './reads.ts';
import { must } from '../../graphql/helpers.ts';
import { joinedReference } from '../../db/references.ts';
import type { AdSetRecord, CampaignRecord } from '../store.ts';
import { campaignEdges } from '../edges.ts';
import { activityFilter } from './activities.ts';
import * as ads from '../service.ts';
import * as delivery from '../../insights/delivery.ts';
import { studyEdges } from '../studies.ts';
import { creativeOfAd } from '../creatives.ts';

export const campaignResolvers: CampaignResolvers = {
  effectiveStatus: (campaign) => ads.campaignEffectiveStatus(campaign),
  budgetRemaining: (campaign, _, ctx) => delivery.campaignBudgetRemaining(ctx, campaign),
  account: async (campaign, _, ctx) => must(await ctx.loaders.ads.adAccountById.load(campaign.accountId)),
  adSets: (campaign, { effectiveStatus, status, ...args }, ctx, info) =>
    edgeConnection(campaignEdges.adsets, ctx, campaign, args, statusFilter({ effectiveStatus, status }), connectionPlan(info, adSetReads)),
  ads: (campaign, { effectiveStatus, ...args }, ctx, info) =>
    edgeConnection(campaignEdges.ads, ctx, campaign, args, statusFilter({ effectiveStatus }), connectionPlan(info, adReads)),
  adStudies: (campaign, args, ctx) => edgeConnection(studyEdges.ofCampaign, ctx, campaign, args),
  activities: (campaign, { since, until, category, ...args }, ctx) =>
    edgeConnection(campaignEdges.activities, ctx, campaign, args, activityFilter({ since, until, category })),
};

export const adResolvers: AdResolvers = {
  configuredStatus: (ad) => ad.status,
  effectiveStatus: (ad, _, ctx) => ads.adEffectiveStatus(ctx, ad),
  account: async (ad, _, ctx) => must(await ctx.loaders.ads.adAccountById.load(ad.accountId)),
  campaign: async (ad, _, ctx) => joinedReference<CampaignRecord>(ad, 'campaign_id') ?? must(await ctx.loaders.ads.campaignById.load(ad.campaignId)),
  adSet: async (ad, _, ctx) => joinedReference<AdSetRecord>(ad, 'adset_id') ?? must(await ctx.loaders.ads.adSetById.load(ad.adsetId)),
  creative: (ad, _, ctx) => creativeOfAd(ctx, ad),
};

export const customAudienceResolvers: CustomAudienceResolvers = {
  operationStatus: (audience) => ({ code: audience.operationStatusCode, description: audience.operationStatusDescription }),
  account: async (audience, _, ctx) => must(await ctx.loaders.ads.adAccountById.load(audience.accountId)),
};

export const customConversionResolvers: CustomConversionResolvers = {
  account: async (conversion, _, ctx) => must(await ctx.loaders.ads.adAccountById.load(conversion.accountId)),
};
