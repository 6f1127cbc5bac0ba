import type { Db } from '../db/index.ts';
import { loaderById, pagedChildren } from '../db/batch.ts';
import { adAccounts, ads, adSets, asyncRequests, campaigns, customAudiences, customConversions } from './store.ts';

/** Per-request loaders of the ads domain. Raw reads: the service decides what the caller may see. */
export function createAdsLoaders(db: Db) {
  return {
    adAccountById: loaderById(db, adAccounts),
    campaignById: loaderById(db, campaigns),
    adSetById: loaderById(db, adSets),
    adById: loaderById(db, ads),
    customAudienceById: loaderById(db, customAudiences),
    customConversionById: loaderById(db, customConversions),
    asyncRequestById: loaderById(db, asyncRequests),
    adAccountsOfOrganization: pagedChildren(db, adAccounts, 'organization_id'),
    campaignsOfAccount: pagedChildren(db, campaigns, 'account_id'),
    adSetsOfAccount: pagedChildren(db, adSets, 'account_id'),
    adSetsOfCampaign: pagedChildren(db, adSets, 'campaign_id'),
    adsOfAccount: pagedChildren(db, ads, 'account_id'),
    adsOfCampaign: pagedChildren(db, ads, 'campaign_id'),
    adsOfAdSet: pagedChildren(db, ads, 'adset_id'),
    customAudiencesOfAccount: pagedChildren(db, customAudiences, 'account_id'),
    customConversionsOfAccount: pagedChildren(db, customConversions, 'account_id'),
  };
}

export type AdsLoaders = ReturnType<typeof createAdsLoaders>;
