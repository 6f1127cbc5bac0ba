import type { RequestContext } from '../context/index.ts';
import { organizationsAllowing } from '../authz/policy.ts';
import { EMPTY_SLICE, findReadable, readable, readableChildren, readableCount, requireSignedIn } from '../authz/guards.ts';
import * as rules from './rules/effective-status.ts';
import type { EffectiveStatus } from './rules/effective-status.ts';
import { asyncRequestSetProgress as setProgress } from './rules/async-requests.ts';
import { issuesOf, type AdSetIssue, type AudienceFacts, type ConversionFacts } from './rules/restrictions.ts';
import { fetchSlice } from '../db/batch.ts';
import type { Slice, PageRequest } from '../db/pagination.ts';
import { badInput } from '../errors/index.ts';
import { recommendationsOf, type AdRecommendation } from './rules/recommendations.ts';
import { audienceIdsNamed, targetingSentences, type TargetingSentenceLine } from './rules/targeting-sentences.ts';
import {
  adAccounts,
  type AdAccountRecord,
  type AdRecord,
  type AdSetRecord,
  type AsyncRequestSetRecord,
  type CampaignRecord,
  type CustomAudienceRecord,
  type ObjectStatus,
} from './store.ts';

const loaders = (ctx: RequestContext) => ctx.loaders.ads;

// --- Single objects ----------------------------------------------------------------------------------

export const findAdAccount = (ctx: RequestContext, id: string) => findReadable(ctx, 'ad_account', id, (key) => loaders(ctx).adAccountById.load(key));
export const findCampaign = (ctx: RequestContext, id: string) => findReadable(ctx, 'campaign', id, (key) => loaders(ctx).campaignById.load(key));
export const findAdSet = (ctx: RequestContext, id: string) => findReadable(ctx, 'ad_set', id, (key) => loaders(ctx).adSetById.load(key));
export const findAd = (ctx: RequestContext, id: string) => findReadable(ctx, 'ad', id, (key) => loaders(ctx).adById.load(key));
// Custom conversions are authorized as custom audiences: the policy has one resource type for both.
export const findCustomAudience = (ctx: RequestContext, id: string) =>
  findReadable(ctx, 'custom_audience', id, (key) => loaders(ctx).customAudienceById.load(key));
export const findCustomConversion = (ctx: RequestContext, id: string) =>
  findReadable(ctx, 'custom_audience', id, (key) => loaders(ctx).customConversionById.load(key));

/** Ad account ids arrive as `act_<id>` in the Graph-style API and as plain ids elsewhere; both mean the same account. */
export function parseAdAccountId(value: string, field = 'id'): string {
  const id = value.startsWith('act_') ? value.slice(4) : value;
  if (!/^[1-9][0-9]{0,18}$/.test(id)) throw badInput(field, `${field} must be an ad account id (act_<number> or <number>).`);
  return id;
}

// --- Lists ---------------------------------------------------------------------------------------------

/** Every ad account the caller may read, across its organizations. */
export async function listAdAccounts(ctx: RequestContext, page: PageRequest): Promise<Slice<AdAccountRecord>> {
  requireSignedIn(ctx);
  const organizations = organizationsAllowing(ctx.viewer, 'read', 'ad_account');
  if (organizations !== 'all' && organizations.length === 0) return EMPTY_SLICE;
  return fetchSlice(ctx.db, adAccounts, page, organizations === 'all' ? {} : { organization_id: organizations });
}

export const adAccountsOfOrganization = (ctx: RequestContext, organizationId: string, page: PageRequest) =>
  readableChildren(ctx, 'ad_account', organizationId, () => loaders(ctx).adAccountsOfOrganization.page(organizationId, page));

export const countAdAccountsOfOrganization = (ctx: RequestContext, organizationId: string) =>
  readableCount(ctx, 'ad_account', organizationId, () => loaders(ctx).adAccountsOfOrganization.count(organizationId));

// --- Derived fields ------------------------------------------------------------------------------------

/** The audiences and conversions an ad set uses, keyed by id (batched: three statements for any number of ad sets). */
export async function adSetFacts(
  ctx: RequestContext,
  adSet: Pick<AdSetRecord, 'id'>,
): Promise<{ audiences: Map<string, AudienceFacts>; conversions: Map<string, ConversionFacts> }> {
  const references = await loaders(ctx).referencesOfAdSet.load(adSet.id);
  const [audienceRows, conversionRows] = await Promise.all([
    Promise.all(references.filter((r) => r.kind === 'custom_audience').map((r) => loaders(ctx).customAudienceById.load(r.objectId))),
    Promise.all(references.filter((r) => r.kind === 'custom_conversion').map((r) => loaders(ctx).customConversionById.load(r.objectId))),
  ]);
  return {
    audiences: new Map(audienceRows.filter((a) => a !== null).map((a) => [a.id, a])),
    conversions: new Map(conversionRows.filter((c) => c !== null).map((c) => [c.id, c])),
  };
}

/** issues_info: one entry per restricted audience or conversion the ad set uses (rules/restrictions.ts). */
export async function adSetIssues(ctx: RequestContext, adSet: AdSetRecord): Promise<AdSetIssue[]> {
  const { audiences, conversions } = await adSetFacts(ctx, adSet);
  return issuesOf(adSet, audiences, conversions);
}

async function statusOf(ctx: RequestContext, table: 'campaign' | 'adSet', id: string): Promise<ObjectStatus> {
  const record = table === 'campaign' ? await loaders(ctx).campaignById.load(id) : await loaders(ctx).adSetById.load(id);
  // Foreign keys keep parents in place; a parent removed under a concurrent request counts as deleted.
  return record?.status ?? 'DELETED';
}

export const campaignEffectiveStatus = (campaign: CampaignRecord): EffectiveStatus => rules.campaignEffectiveStatus({ own: campaign.status });

export async function adSetEffectiveStatus(ctx: RequestContext, adSet: AdSetRecord): Promise<EffectiveStatus> {
  const [campaign, issues] = await Promise.all([statusOf(ctx, 'campaign', adSet.campaignId), adSetIssues(ctx, adSet)]);
  return rules.adSetEffectiveStatus({ own: adSet.status, campaign, hasIssues: issues.length > 0 });
}

export async function adEffectiveStatus(ctx: RequestContext, ad: AdRecord): Promise<EffectiveStatus> {
  const [campaign, adSetRecord] = await Promise.all([statusOf(ctx, 'campaign', ad.campaignId), loaders(ctx).adSetById.load(ad.adsetId)]);
  const issues = adSetRecord ? await adSetIssues(ctx, adSetRecord) : [];
  return rules.adEffectiveStatus({ own: ad.status, campaign, adSet: adSetRecord?.status ?? 'DELETED', adSetHasIssues: issues.length > 0 });
}

/** Async request sets and requests are read as the ad sets they act on are (ad_set read in the organization). */
export const findAsyncRequestSet = (ctx: RequestContext, id: string) => findReadable(ctx, 'ad_set', id, (key) => loaders(ctx).asyncRequestSetById.load(key));
export const findAsyncRequest = (ctx: RequestContext, id: string) => findReadable(ctx, 'ad_set', id, (key) => loaders(ctx).asyncRequestById.load(key));

/** The recommendations an ad set reads with (rules/recommendations.ts); empty when there are none. */
export async function adSetRecommendations(ctx: RequestContext, adSet: AdSetRecord): Promise<AdRecommendation[]> {
  const [account, campaign] = await Promise.all([loaders(ctx).adAccountById.load(adSet.accountId), loaders(ctx).campaignById.load(adSet.campaignId)]);
  if (!account) return [];
  return recommendationsOf(adSet, { account, campaign, budgets: ctx.config.adSets.budgets });
}

/**
 * The ad set's targeting in sentences (rules/targeting-sentences.ts), its custom audiences by name where the
 * caller may read them (another's sees their ids, as it would reading the targeting itself).
 */
export async function adSetTargetingSentences(ctx: RequestContext, adSet: AdSetRecord): Promise<TargetingSentenceLine[]> {
  const audiences = await audiencesNamedIn(ctx, adSet.organizationId, adSet.targeting);
  return targetingSentences(adSet.targeting, { audiences: new Map(audiences.map((audience) => [audience.id, audience.name])) });
}

/**
 * The custom audiences a targeting names that the caller may read, of the organization the targeting is for
 * (stored targeting is JSON: an id of another organization's audience, or of none, is left out).
 */
export async function audiencesNamedIn(ctx: RequestContext, organizationId: string, targeting: unknown): Promise<CustomAudienceRecord[]> {
  const ids = audienceIdsNamed(targeting).filter((id) => /^[1-9][0-9]{0,18}$/.test(id));
  const records = await Promise.all(ids.map((id) => loaders(ctx).customAudienceById.load(id)));
  return records.filter((record): record is CustomAudienceRecord => {
    const shown = readable(ctx, 'custom_audience', record);
    return shown !== null && shown.organizationId === organizationId;
  });
}

/** A request set's progress: its requests counted by status. */
export async function asyncRequestSetProgress(ctx: RequestContext, set: AsyncRequestSetRecord) {
  return setProgress(await loaders(ctx).requestStatusCountsOfSet.load(set.id));
}
