import type { AdAccountResolvers } from '../../graphql/__generated__/resolvers-types.ts';
import { edgeConnection, statusFilter } from '../../graphql/edges.ts';
import { connectionPlan } from '../../graphql/projection.ts';
import { adReads, adSetReads, campaignReads } from './reads.ts';
import { must } from '../../graphql/helpers.ts';
import { accountEdges } from '../edges.ts';
import { activityFilter } from './activities.ts';
import * as delivery from '../../insights/delivery.ts';
import { studyEdges } from '../studies.ts';
import { creativeEdges } from '../creatives.ts';
import { ruleEdges } from '../ad-rules.ts';
import { dsaRecommendations } from '../dsa-recommendations.ts';

export const adAccountResolvers: AdAccountResolvers = {
  actId: (account) => `act_${account.id}`,
  amountSpent: (account, _, ctx) => delivery.accountAmountSpent(ctx, account),
  organization: async (account, _, ctx) => must(await ctx.loaders.identity.organizationById.load(account.organizationId)),
  campaigns: (account, { effectiveStatus, status, ...args }, ctx, info) =>
    edgeConnection(accountEdges.campaigns, ctx, account, args, statusFilter({ effectiveStatus, status }), connectionPlan(info, campaignReads)),
  adSets: (account, { effectiveStatus, status, ...args }, ctx, info) =>
    edgeConnection(accountEdges.adsets, ctx, account, args, statusFilter({ effectiveStatus, status }), connectionPlan(info, adSetReads)),
  ads: (account, { effectiveStatus, ...args }, ctx, info) =>
    edgeConnection(accountEdges.ads, ctx, account, args, statusFilter({ effectiveStatus }), connectionPlan(info, adReads)),
  adStudies: (account, args, ctx) => edgeConnection(studyEdges.ofAccount, ctx, account, args),
  adCreatives: (account, args, ctx) => edgeConnection(creativeEdges.ofAccount, ctx, account, args),
  adRules: (account, args, ctx) => edgeConnection(ruleEdges.ofAccount, ctx, account, args),
  dsaRecommendations: async (account, _, ctx) => (await dsaRecommendations(ctx, account)).recommendations,
  activities: (account, { since, until, category, ...args }, ctx) =>
    edgeConnection(accountEdges.activities, ctx, account, args, activityFilter({ since, until, category })),
  customAudiences: (account, args, ctx) => edgeConnection(accountEdges.customaudiences, ctx, account, args),
  customConversions: (account, args, ctx) => edgeConnection(accountEdges.customconversions, ctx, account, args),
  asyncRequestSets: (account, args, ctx) => edgeConnection(accountEdges.async_batch_requests, ctx, account, args),
};
