import type { Resolvers } from '../graphql/__generated__/resolvers-types.ts';
import { connection, connectionFields } from '../graphql/connections.ts';
import { graphParams, lowercaseEnum, must } from '../graphql/helpers.ts';
import { assertNumericId } from '../authz/guards.ts';
import { organizationsAllowing } from '../authz/policy.ts';
import { countRows } from '../db/batch.ts';
import { notFound } from '../errors/index.ts';
import * as ads from './service.ts';
import * as writes from './writes.ts';

export const adsResolvers: Resolvers = {
  FlagReason: lowercaseEnum(['health', 'financial']),

  Query: {
    adAccount: (_, { id }, ctx) => ads.findAdAccount(ctx, ads.parseAdAccountId(id)),
    adAccounts: (_, args, ctx) =>
      connection(args, (page) => ads.listAdAccounts(ctx, page), async () => {
        const organizations = organizationsAllowing(ctx.viewer, 'read', 'ad_account');
        if (organizations === 'all') return countRows(ctx.db, 'ad_accounts', {});
        return organizations.length === 0 ? 0 : countRows(ctx.db, 'ad_accounts', { organization_id: organizations });
      }),
    campaign: (_, { id }, ctx) => {
      assertNumericId(id);
      return ads.findCampaign(ctx, id);
    },
    adSet: (_, { id }, ctx) => {
      assertNumericId(id);
      return ads.findAdSet(ctx, id);
    },
    ad: (_, { id }, ctx) => {
      assertNumericId(id);
      return ads.findAd(ctx, id);
    },
    adSets: async (_, { accountId, status, ...args }, ctx) => {
      const id = ads.parseAdAccountId(accountId, 'accountId');
      const account = await ads.findAdAccount(ctx, id);
      if (!account) throw notFound('Ad account', accountId);
      const statuses = status ?? undefined;
      return connection(args, (page) => ads.adSetsOfAccount(ctx, account, page, statuses), () => ads.countAdSetsOfAccount(ctx, account, statuses));
    },
  },

  Mutation: {
    createCampaign: (_, { accountId, input }, ctx) => writes.createCampaign(ctx, ads.parseAdAccountId(accountId, 'accountId'), graphParams(input)),
    updateCampaign: (_, { id, input }, ctx) => {
      assertNumericId(id);
      return writes.updateCampaign(ctx, id, graphParams(input));
    },
    deleteCampaign: async (_, { id }, ctx) => {
      assertNumericId(id);
      await writes.deleteCampaign(ctx, id);
      return true;
    },
    createAd: (_, { accountId, input }, ctx) =>
      writes.createAd(ctx, ads.parseAdAccountId(accountId, 'accountId'), graphParams(input, { adSetId: 'adset_id' })),
    updateAd: (_, { id, input }, ctx) => {
      assertNumericId(id);
      return writes.updateAd(ctx, id, graphParams(input));
    },
    deleteAd: async (_, { id }, ctx) => {
      assertNumericId(id);
      await writes.deleteAd(ctx, id);
      return true;
    },
    createCustomAudience: (_, { accountId, input }, ctx) =>
      writes.createCustomAudience(ctx, ads.parseAdAccountId(accountId, 'accountId'), graphParams(input)),
    createCustomConversion: (_, { accountId, input }, ctx) =>
      writes.createCustomConversion(ctx, ads.parseAdAccountId(accountId, 'accountId'), graphParams(input)),
  },

  AdAccount: {
    actId: (account) => `act_${account.id}`,
    organization: async (account, _, ctx) => must(await ctx.loaders.identity.organizationById.load(account.organizationId)),
    campaigns: (account, { status, ...args }, ctx) =>
      connection(args, (page) => ads.campaignsOfAccount(ctx, account, page, status ?? undefined),
        () => ads.countCampaignsOfAccount(ctx, account, status ?? undefined)),
    adSets: (account, { status, ...args }, ctx) =>
      connection(args, (page) => ads.adSetsOfAccount(ctx, account, page, status ?? undefined), () => ads.countAdSetsOfAccount(ctx, account, status ?? undefined)),
    ads: (account, args, ctx) =>
      connection(args, (page) => ads.adsOfAccount(ctx, account, page),
        () => ads.countAdsOfAccount(ctx, account)),
    customAudiences: (account, args, ctx) =>
      connection(args, (page) => ads.customAudiencesOfAccount(ctx, account, page),
        () => ads.countCustomAudiencesOfAccount(ctx, account)),
    customConversions: (account, args, ctx) =>
      connection(args, (page) => ads.customConversionsOfAccount(ctx, account, page),
        () => ads.countCustomConversionsOfAccount(ctx, account)),
  },

  Campaign: {
    account: async (campaign, _, ctx) => must(await ctx.loaders.ads.adAccountById.load(campaign.accountId)),
    adSets: (campaign, args, ctx) =>
      connection(args, (page) => ads.adSetsOfCampaign(ctx, campaign, page),
        () => ads.countAdSetsOfCampaign(ctx, campaign)),
    ads: (campaign, args, ctx) =>
      connection(args, (page) => ads.adsOfCampaign(ctx, campaign, page),
        () => ads.countAdsOfCampaign(ctx, campaign)),
  },

  AdSet: {
    configuredStatus: (adSet) => adSet.status,
    effectiveStatus: (adSet, _, ctx) => ads.adSetEffectiveStatus(ctx, adSet),
    account: async (adSet, _, ctx) => must(await ctx.loaders.ads.adAccountById.load(adSet.accountId)),
    campaign: async (adSet, _, ctx) => must(await ctx.loaders.ads.campaignById.load(adSet.campaignId)),
    sourceAdSet: (adSet, _, ctx) => (adSet.sourceAdsetId ? ads.findAdSet(ctx, adSet.sourceAdsetId) : null),
    ads: (adSet, args, ctx) => connection(args, (page) => ads.adsOfAdSet(ctx, adSet, page), () => ads.countAdsOfAdSet(ctx, adSet)),
  },

  Ad: {
    account: async (ad, _, ctx) => must(await ctx.loaders.ads.adAccountById.load(ad.accountId)),
    campaign: async (ad, _, ctx) => must(await ctx.loaders.ads.campaignById.load(ad.campaignId)),
    adSet: async (ad, _, ctx) => must(await ctx.loaders.ads.adSetById.load(ad.adsetId)),
  },

  CustomAudience: {
    operationStatus: (audience) => ({ code: audience.operationStatusCode, description: audience.operationStatusDescription }),
    account: async (audience, _, ctx) => must(await ctx.loaders.ads.adAccountById.load(audience.accountId)),
  },

  CustomConversion: {
    account: async (conversion, _, ctx) => must(await ctx.loaders.ads.adAccountById.load(conversion.accountId)),
  },

  AdAccountConnection: connectionFields,
  CampaignConnection: connectionFields,
  AdSetConnection: connectionFields,
  AdConnection: connectionFields,
  CustomAudienceConnection: connectionFields,
  CustomConversionConnection: connectionFields,
};
