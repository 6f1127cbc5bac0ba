import type { AdSetResolvers } from '../../graphql/__generated__/resolvers-types.ts';
import { edgeConnection, statusFilter } from '../../graphql/edges.ts';
import { connectionPlan } from '../../graphql/projection.ts';
import { adReads, adSetReads } from './reads.ts';
import { must } from '../../graphql/helpers.ts';
import { joinedReference } from '../../db/references.ts';
import type { CampaignRecord } from '../store.ts';
import { adSetEdges } from '../edges.ts';
import * as ads from '../service.ts';
import * as delivery from '../../insights/delivery.ts';
import { adLabelsOf, adSetScheduleOf, attributionSpecOf, bidConstraintsOf, frequencyControlSpecsOf, promotedObjectOf, targetingOf } from '../graphql-shapes.ts';
import type { BillingEvent } from '../../graphql/__generated__/resolvers-types.ts';
import { adSetDeliveryEstimate, adSetMessageDeliveryEstimate } from '../estimates.ts';
import { estimateRequestOf } from './estimates.ts';
import { activityFilter } from './activities.ts';
import { studyEdges } from '../studies.ts';
import { creativeEdges } from '../creatives.ts';
import { ruleEdges } from '../ad-rules.ts';

/** AdSet: the record's camelCase fields resolve by name; these are the derived ones and the edges. */
export const adSetResolvers: AdSetResolvers = {
  configuredStatus: (adSet) => adSet.status,
  effectiveStatus: (adSet, _, ctx) => ads.adSetEffectiveStatus(ctx, adSet),
  issues: (adSet, _, ctx) => ads.adSetIssues(ctx, adSet),
  recommendations: async (adSet, _, ctx) => {
    const found = await ads.adSetRecommendations(ctx, adSet);
    return found.length > 0 ? found : null;
  },
  account: async (adSet, _, ctx) => must(await ctx.loaders.ads.adAccountById.load(adSet.accountId)),
  campaign: async (adSet, _, ctx) => joinedReference<CampaignRecord>(adSet, 'campaign_id') ?? must(await ctx.loaders.ads.campaignById.load(adSet.campaignId)),
  budgetRemaining: (adSet, _, ctx) => delivery.adSetBudgetRemaining(ctx, adSet),
  campaignActiveTime: (adSet, _, ctx) => delivery.campaignActiveTime(ctx, adSet),
  learningStageInfo: (adSet, _, ctx) => delivery.learningStageInfo(ctx, adSet),
  sourceAdSet: (adSet, _, ctx) => (adSet.sourceAdsetId ? ads.findAdSet(ctx, adSet.sourceAdsetId) : null),
  sourceAdSetId: (adSet) => adSet.sourceAdsetId,
  // Every write requires it (create) or copies it (copy), so a stored ad set has one.
  billingEvent: (adSet) => adSet.billingEvent as BillingEvent,
  // The nested specs, from the stored Graph shape (graphql-shapes.ts, the one mapping).
  targeting: (adSet) => targetingOf(adSet.targeting),
  targetingSentences: (adSet, _, ctx) => ads.adSetTargetingSentences(ctx, adSet),
  deliveryEstimate: (adSet, args, ctx) => adSetDeliveryEstimate(ctx, adSet, estimateRequestOf(args)),
  messageDeliveryEstimate: (adSet, _, ctx) => adSetMessageDeliveryEstimate(ctx, adSet),
  promotedObject: (adSet) => promotedObjectOf(adSet.promotedObject),
  bidConstraints: (adSet) => bidConstraintsOf(adSet.bidConstraints),
  adlabels: (adSet) => adLabelsOf(adSet.adlabels),
  adsetSchedule: (adSet) => adSetScheduleOf(adSet.adsetSchedule),
  attributionSpec: (adSet) => attributionSpecOf(adSet.attributionSpec),
  frequencyControlSpecs: (adSet) => frequencyControlSpecsOf(adSet.frequencyControlSpecs),
  // Stored values outside the enums (rows written before the rules) read as null rather than failing the query.
  bidStrategy: (adSet) => adSet.bidStrategy as never,
  ads: (adSet, { effectiveStatus, ...args }, ctx, info) =>
    edgeConnection(adSetEdges.ads, ctx, adSet, args, statusFilter({ effectiveStatus }), connectionPlan(info, adReads)),
  adStudies: (adSet, args, ctx) => edgeConnection(studyEdges.ofAdSet, ctx, adSet, args),
  adCreatives: (adSet, args, ctx) => edgeConnection(creativeEdges.ofAdSet, ctx, adSet, args),
  adRulesGoverned: (adSet, { all, ...args }, ctx) => edgeConnection(ruleEdges.governing, ctx, adSet, args, { all: all ?? false }),
  activities: (adSet, { since, until, category, ...args }, ctx) =>
    edgeConnection(adSetEdges.activities, ctx, adSet, args, activityFilter({ since, until, category })),
  copies: (adSet, { effectiveStatus, ...args }, ctx, info) =>
    edgeConnection(adSetEdges.copies, ctx, adSet, args, statusFilter({ effectiveStatus }), connectionPlan(info, adSetReads)),
  asyncRequests: (adSet, args, ctx) => edgeConnection(adSetEdges.asyncadrequests, ctx, adSet, args),
};
