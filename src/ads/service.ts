import type { RequestContext } from '../context/index.ts';
import { organizationsAllowing } from '../authz/policy.ts';
import { EMPTY_SLICE, findReadable, readableChildren, readableCount, requireSignedIn } from '../authz/guards.ts';
import { fetchSlice } from '../db/batch.ts';
import type { Slice, PageRequest } from '../db/pagination.ts';
import { badInput } from '../errors/index.ts';
import {
  adAccounts, type AdAccountRecord, type AdSetRecord, type CampaignRecord, type CustomAudienceRecord,
  type CustomConversionRecord, type ObjectStatus,
} from './store.ts';

const loaders = (ctx: RequestContext) => ctx.loaders.ads;

// --- Single objects ----------------------------------------------------------------------------------

export const findAdAccount = (ctx: RequestContext, id: string) =>
  findReadable(ctx, 'ad_account', id, (key) => loaders(ctx).adAccountById.load(key));
export const findCampaign = (ctx: RequestContext, id: string) =>
  findReadable(ctx, 'campaign', id, (key) => loaders(ctx).campaignById.load(key));
export const findAdSet = (ctx: RequestContext, id: string) =>
  findReadable(ctx, 'ad_set', id, (key) => loaders(ctx).adSetById.load(key));
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

export const campaignsOfAccount = (ctx: RequestContext, account: AdAccountRecord, page: PageRequest, statuses?: ObjectStatus[]) =>
  readableChildren(ctx, 'campaign', account.organizationId, () =>
    loaders(ctx).campaignsOfAccount.page(account.id, page, statuses ? { status: statuses } : {}),
  );

export const countCampaignsOfAccount = (ctx: RequestContext, account: AdAccountRecord, statuses?: ObjectStatus[]) =>
  readableCount(ctx, 'campaign', account.organizationId, () => loaders(ctx).campaignsOfAccount.count(account.id, statuses ? { status: statuses } : {}));

export const adSetsOfAccount = (ctx: RequestContext, account: AdAccountRecord, page: PageRequest, statuses?: ObjectStatus[]) =>
  readableChildren(ctx, 'ad_set', account.organizationId, () =>
    loaders(ctx).adSetsOfAccount.page(account.id, page, statuses ? { status: statuses } : {}),
  );

export const countAdSetsOfAccount = (ctx: RequestContext, account: AdAccountRecord, statuses?: ObjectStatus[]) =>
  readableCount(ctx, 'ad_set', account.organizationId, () => loaders(ctx).adSetsOfAccount.count(account.id, statuses ? { status: statuses } : {}));

export const adSetsOfCampaign = (ctx: RequestContext, campaign: CampaignRecord, page: PageRequest) =>
  readableChildren(ctx, 'ad_set', campaign.organizationId, () => loaders(ctx).adSetsOfCampaign.page(campaign.id, page));

export const countAdSetsOfCampaign = (ctx: RequestContext, campaign: CampaignRecord) =>
  readableCount(ctx, 'ad_set', campaign.organizationId, () => loaders(ctx).adSetsOfCampaign.count(campaign.id));

export const adsOfAccount = (ctx: RequestContext, account: AdAccountRecord, page: PageRequest) =>
  readableChildren(ctx, 'ad', account.organizationId, () => loaders(ctx).adsOfAccount.page(account.id, page));

export const countAdsOfAccount = (ctx: RequestContext, account: AdAccountRecord) =>
  readableCount(ctx, 'ad', account.organizationId, () => loaders(ctx).adsOfAccount.count(account.id));

export const adsOfCampaign = (ctx: RequestContext, campaign: CampaignRecord, page: PageRequest) =>
  readableChildren(ctx, 'ad', campaign.organizationId, () => loaders(ctx).adsOfCampaign.page(campaign.id, page));

export const countAdsOfCampaign = (ctx: RequestContext, campaign: CampaignRecord) =>
  readableCount(ctx, 'ad', campaign.organizationId, () => loaders(ctx).adsOfCampaign.count(campaign.id));

export const adsOfAdSet = (ctx: RequestContext, adSet: AdSetRecord, page: PageRequest) =>
  readableChildren(ctx, 'ad', adSet.organizationId, () => loaders(ctx).adsOfAdSet.page(adSet.id, page));

export const countAdsOfAdSet = (ctx: RequestContext, adSet: AdSetRecord) =>
  readableCount(ctx, 'ad', adSet.organizationId, () => loaders(ctx).adsOfAdSet.count(adSet.id));

export const customAudiencesOfAccount = (ctx: RequestContext, account: AdAccountRecord, page: PageRequest): Promise<Slice<CustomAudienceRecord>> =>
  readableChildren(ctx, 'custom_audience', account.organizationId, () => loaders(ctx).customAudiencesOfAccount.page(account.id, page));

export const countCustomAudiencesOfAccount = (ctx: RequestContext, account: AdAccountRecord) =>
  readableCount(ctx, 'custom_audience', account.organizationId, () => loaders(ctx).customAudiencesOfAccount.count(account.id));

export const customConversionsOfAccount = (ctx: RequestContext, account: AdAccountRecord, page: PageRequest): Promise<Slice<CustomConversionRecord>> =>
  readableChildren(ctx, 'custom_audience', account.organizationId, () => loaders(ctx).customConversionsOfAccount.page(account.id, page));

export const countCustomConversionsOfAccount = (ctx: RequestContext, account: AdAccountRecord) =>
  readableCount(ctx, 'custom_audience', account.organizationId, () => loaders(ctx).customConversionsOfAccount.count(account.id));

// --- Derived fields ------------------------------------------------------------------------------------

export type EffectiveStatus = 'ACTIVE' | 'PAUSED' | 'DELETED' | 'CAMPAIGN_PAUSED' | 'ARCHIVED' | 'IN_PROCESS' | 'WITH_ISSUES';

/**
 * An ad set's delivery status from its own status and its campaign's: a paused or archived campaign
 * stops an active ad set. (Issues from flagged audiences are added by the ad set rules.)
 */
export function effectiveStatusOf(status: ObjectStatus, campaignStatus: ObjectStatus | undefined): EffectiveStatus {
  if (status !== 'ACTIVE') return status;
  if (campaignStatus === 'DELETED' || campaignStatus === 'ARCHIVED') return campaignStatus;
  if (campaignStatus === 'PAUSED') return 'CAMPAIGN_PAUSED';
  return 'ACTIVE';
}

export async function adSetEffectiveStatus(ctx: RequestContext, adSet: AdSetRecord): Promise<EffectiveStatus> {
  const campaign = await loaders(ctx).campaignById.load(adSet.campaignId);
  return effectiveStatusOf(adSet.status, campaign?.status);
}

